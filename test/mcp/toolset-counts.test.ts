/**
 * The tool counts the AI clients screen adds up (src-shared/toolsets.ts) are the catalogue's, and
 * what an install writes for a client with a tool cap fits that cap.
 */
import { describe, expect, it } from 'vitest';
import { tools as catalogue } from '../../src-mcp/server/tool-catalogue.ts';
import { isAppOnly, probedActions } from '../../src-mcp/contract/tool-definition.ts';

/** The tools a model is offered (app-only tools are the approval view's, never the model's). */
const tools = catalogue.filter((tool) => !isAppOnly(tool));
import {
  DEFAULT_TOOLSETS,
  installDefaultToolsets,
  TOOL_CAPPED_CLIENTS,
  TOOLSET_NAMES,
  TOOLSET_PROBED_COUNTS,
  TOOLSET_TOOL_COUNTS,
  servedToolCount,
  toolCount,
} from '../../src-shared/toolsets.ts';

describe('toolset tool counts', () => {
  it('each set counts exactly the tools the catalogue declares in it', () => {
    const declared = Object.fromEntries(
      TOOLSET_NAMES.map((set) => [set, tools.filter((tool) => tool.toolset === set).length]),
    );
    expect(TOOLSET_TOOL_COUNTS).toEqual(declared);
    expect(toolCount(TOOLSET_NAMES)).toBe(tools.length);
  });

  it('the probed counts are the tools listed only once a graph offers their action', () => {
    const probed = Object.fromEntries(
      TOOLSET_NAMES.map((set) => [
        set,
        tools.filter((tool) => tool.toolset === set && probedActions(tool).length > 0).length,
      ]).filter(([, count]) => count !== 0),
    );
    expect(TOOLSET_PROBED_COUNTS).toEqual(probed);
    // Cursor's sets: what its chats are served before (and after) a graph offers semantic search.
    expect(servedToolCount(['core', 'navigation'])).toEqual({ always: 38, probed: 1 });
  });

  it('a capped client gets sets that fit its cap, while the default would not', () => {
    expect(Object.keys(TOOL_CAPPED_CLIENTS)).toEqual(['cursor']);
    for (const [client, { cap, toolsets }] of Object.entries(TOOL_CAPPED_CLIENTS)) {
      expect(toolCount(toolsets)).toBeLessThanOrEqual(cap);
      expect(toolsets).toContain('core');
      expect(toolsets).toContain('navigation');
      expect(installDefaultToolsets(client)).toEqual(toolsets);
      expect(toolCount(DEFAULT_TOOLSETS)).toBeGreaterThan(cap);
    }
    expect(installDefaultToolsets('claude-desktop')).toBeUndefined();
    expect(installDefaultToolsets('constructor')).toBeUndefined();
  });
});
