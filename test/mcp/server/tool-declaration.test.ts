/**
 * The declaration contract (docs/architecture.md, Declaring a tool): every tool is one
 * declaration in its toolset's folder, readOnlyHint follows from `writes` / `effects`, one
 * refusal rule decides both tools/list and tools/call, and errors name the declared feature.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { GraphSession } from '../../../src-mcp/roam/graph-session.ts';
import type { GraphGateway } from '../../../src-mcp/roam/graph-gateway.ts';
import { callTool, refusal, type ToolCallState } from '../../../src-mcp/server/tool-call.ts';
import { ownServices } from '../../harness/http-context.ts';
import { listedTool, tools as catalogue } from '../../../src-mcp/server/tool-catalogue.ts';
import { actionOf, defineTool } from '../../../src-mcp/contract/tool-definition.ts';
import type { ToolName } from '../../../src-mcp/contract/tool-names.ts';
import { errorFromResponse, scopeOfAction } from '../../../src-shared/local-api/index.ts';
import { TOOLSET_NAMES } from '../../../src-shared/toolsets.ts';

const reader = defineTool({
  name: 'read_thing' as ToolName,
  toolset: 'core',
  feature: 'things',
  actions: [],
  title: 'Read',
  description: 'reads',
  scope: 'graph',
  inputSchema: {},
  handler: async () => 'read',
});
const writer = defineTool({
  name: 'write_thing' as ToolName,
  toolset: 'core',
  feature: 'things',
  actions: [],
  title: 'Write',
  description: 'writes',
  scope: 'graph',
  writes: 'append',
  annotations: { destructiveHint: false, idempotentHint: false },
  inputSchema: {},
  handler: async () => 'written',
});
const opener = defineTool({
  name: 'open_thing' as ToolName,
  toolset: 'core',
  feature: 'things',
  actions: [],
  title: 'Open',
  description: 'opens a page in Roam Desktop',
  scope: 'graph',
  effects: 'ui',
  inputSchema: { title: z.string() },
  handler: async (args, ctx) => `opened ${args.title} in ${ctx.graph.nickname}`,
});

function state(
  readOnly: boolean,
  accessLevel?: 'read-only' | 'full',
  grantedAccessLevel?: 'read-only' | 'full',
  callGraph?: () => Promise<unknown>,
): ToolCallState {
  const session = new GraphSession({ readOnly });
  session.setGraphs([
    { name: 'g', nickname: 'G', type: 'hosted', token: 't', accessLevel, grantedAccessLevel },
  ]);
  const gateway = { session, offers: () => false, callGraph } as unknown as GraphGateway;
  return { gateway, services: ownServices(), readOnly, toolsets: TOOLSET_NAMES };
}
const scope = { signal: new AbortController().signal, progress: () => {}, notice: () => {} };

describe('tool declarations', () => {
  it('derives readOnlyHint from writes and effects, never from a hand-written flag', () => {
    expect(listedTool(reader).annotations).toMatchObject({ readOnlyHint: true });
    expect(listedTool(writer).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(listedTool(opener).annotations).toMatchObject({ readOnlyHint: false });
    for (const tool of catalogue) {
      expect(listedTool(tool).annotations?.readOnlyHint, tool.name).toBe(!tool.writes && !tool.effects);
    }
  });

  it('refuses writes in read-only mode, at a chosen read-only level and with read-only tokens, but not UI effects', async () => {
    expect(refusal(writer, state(true))).toMatchObject({
      code: 'ACCESS_LEVEL',
      details: { setting: '--read-only' },
    });
    expect(refusal(writer, state(false, 'read-only'))?.code).toBe('ACCESS_LEVEL');
    expect(refusal(writer, state(false, undefined, 'read-only'))?.code).toBe('INSUFFICIENT_SCOPE');
    expect(refusal(opener, state(true))).toBeUndefined();
    expect(refusal(opener, state(false, 'read-only'))).toBeUndefined();
    const result = await callTool([opener], 'open_thing', { title: 'P' }, scope, state(true));
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: 'opened P in G' }]);
  });

  it('asks for a graph ticket before a write, not before a UI effect', async () => {
    const write = await callTool([writer], 'write_thing', {}, scope, state(false, 'full'));
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toContain('GRAPH_TICKET_REQUIRED');
    const open = await callTool([opener], 'open_thing', { title: 'P' }, scope, state(false, 'full'));
    expect(open.isError).toBeUndefined();
  });

  it('keeps every catalogue name unique', () => {
    const names = catalogue.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('names the declared feature and the build it needs when Roam lacks the action', async () => {
    const action = 'data.ai.suggestLinks';
    const suggester = defineTool({
      name: 'suggest_links',
      title: 'Suggest links',
      description: 'suggests',
      toolset: 'core',
      feature: 'link suggestions',
      actions: [{ action, needs: 'a Roam Desktop build of 2026-07-08 or later (Local API 1.1.3)' }],
      scope: 'graph',
      inputSchema: {},
      handler: (_args, ctx) => ctx.call(action, [{ text: 'x' }]),
    });
    const olderRoam = async () => {
      throw errorFromResponse(
        404,
        {
          error: { code: 'UNKNOWN_ACTION', message: `API action not found: ${action}` },
          apiVersion: '1.1.2',
        },
        action,
      );
    };
    const result = await callTool(
      [suggester],
      'suggest_links',
      {},
      scope,
      state(false, 'full', undefined, olderRoam),
    );
    expect(JSON.parse((result.content[0] as { text: string }).text).error).toMatchObject({
      code: 'UNKNOWN_ACTION',
      message:
        'API action not found: data.ai.suggestLinks. This Roam Desktop (Local API 1.1.2) does not offer link suggestions (suggest_links), action data.ai.suggestLinks: update Roam Desktop to its latest version. It needs a Roam Desktop build of 2026-07-08 or later (Local API 1.1.3).',
      roamApiVersion: '1.1.2',
    });
  });

  it('declares every tool once, in the folder of its one toolset', async () => {
    const declared = await declarationsIn(TOOLS_DIR);
    const problems = catalogue.flatMap((tool) => {
      const files = declared.get(tool.name) ?? [];
      if (files.length !== 1)
        return [`${tool.name} is declared in ${files.length} files: ${files.join(', ')}`];
      const folder = files[0]!.split(path.sep)[0];
      return folder === tool.toolset
        ? []
        : [`${tool.name} declares toolset '${tool.toolset}' but lives in src-mcp/tools/${files[0]}`];
    });
    const catalogued = new Set<string>(catalogue.map((t) => t.name));
    const missing = [...declared.keys()].filter((name) => !catalogued.has(name));
    expect(problems).toEqual([]);
    expect(missing, 'declared in src-mcp/tools/ but not in the catalogue').toEqual([]);
    expect(catalogue.every((tool) => TOOLSET_NAMES.includes(tool.toolset))).toBe(true);
  });

  it('declares writes at least as wide as the scope its Roam actions need', () => {
    const rank = { read: 0, append: 1, edit: 2 } as const;
    const problems = catalogue.flatMap((tool) =>
      tool.actions
        .map((declared) => actionOf(declared).action)
        .filter((action) => rank[scopeOfAction(action)] > rank[tool.writes ?? 'read'])
        .map(
          (action) =>
            `${tool.name} calls ${action} (${scopeOfAction(action)}) but declares writes: ${tool.writes}`,
        ),
    );
    expect(problems).toEqual([]);
  });
});

const TOOLS_DIR = path.resolve(import.meta.dirname, '../../../src-mcp/tools');

/** Tool name → the files (relative to src-mcp/tools/) whose defineTool declares it. */
async function declarationsIn(dir: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((e) => e.isFile() && e.name.endsWith('.ts'))) {
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/defineTool\(\{\s*name: '([a-z_]+)'/g)) {
      const list = found.get(match[1]!) ?? [];
      list.push(path.relative(dir, file));
      found.set(match[1]!, list);
    }
  }
  return found;
}
