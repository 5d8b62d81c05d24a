/**
 * The tool counts the AI clients screen adds up (src-shared/toolsets.ts) are the catalogue's, and
 * what an install writes for a client with a tool cap fits that cap.
 */
import { describe, expect, it } from 'vitest';
import { tools } from '../../src-mcp/server/tool-catalogue.ts';
import {
  DEFAULT_TOOLSETS,
  installDefaultToolsets,
  TOOL_CAPPED_CLIENTS,
  TOOLSET_NAMES,
  TOOLSET_TOOL_COUNTS,
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
