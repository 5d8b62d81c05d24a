/**
 * Every write path feeds the consent gate (docs/mcp.md, "Consent before a write takes much
 * away"): each catalogue tool that writes says what it takes away, or says explicitly that it
 * takes nothing and why. A new `edit` tool with neither fails here, so it cannot slip past the
 * gate unconsidered. An `append` tool takes nothing by its scope: every action it calls needs at
 * most append scope (Roam only adds there) and none may write beyond it.
 */
import { describe, expect, it } from 'vitest';
import { scopeOfAction } from '../../../src-shared/local-api/index.ts';
import { actionOf, type ToolDefinition } from '../../../src-mcp/contract/tool-definition.ts';
import { tools as catalogue } from '../../../src-mcp/server/tool-catalogue.ts';

function unconsidered(tool: ToolDefinition): string | undefined {
  if (!tool.writes) return undefined;
  if (tool.writes === 'append') {
    const beyond = tool.actions
      .map(actionOf)
      .filter((a) => a.mayWrite === true || scopeOfAction(a.action) === 'edit');
    return beyond.length
      ? `${tool.name} declares append but calls ${beyond.map((a) => a.action).join(', ')}`
      : undefined;
  }
  if (tool.takes || tool.editTargets === 'planned') return undefined;
  return `${tool.name} writes (edit) with neither a plan reader (takes) nor takesNothing(why)`;
}

describe('every write tool is considered by the consent gate', () => {
  it('has a plan reader, hands its plan over, declares it takes nothing (and why), or only appends', () => {
    expect(catalogue.flatMap((tool) => unconsidered(tool) ?? [])).toEqual([]);
  });

  it('says why for each write that takes nothing', () => {
    const nothing = catalogue.filter((t) => t.takes?.nothing !== undefined);
    expect(nothing.map((t) => t.name).sort()).toEqual([
      'add_shortcut',
      'approve_change',
      'reload_dev_extensions',
      'remove_shortcut',
    ]);
    for (const tool of nothing) expect(tool.takes?.nothing?.length, tool.name).toBeGreaterThan(10);
  });

  it('fails for an edit tool that says nothing about what it takes', () => {
    const [someEdit] = catalogue.filter((t) => t.writes === 'edit' && t.takes && t.editTargets !== 'planned');
    const { takes: _takes, ...bare } = someEdit as ToolDefinition;
    expect(unconsidered(bare as ToolDefinition)).toMatch(/neither a plan reader/);
  });
});
