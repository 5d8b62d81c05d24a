import { describe, expect, it } from 'vitest';
import { TICKET_TOOLSET } from '../../../src-mcp/access/selection.ts';
import { tools } from '../../../src-mcp/server/tool-catalogue.ts';

describe('the toolset a write needs for its graph ticket', () => {
  it('is the toolset select_graph declares', () => {
    expect(tools.find((tool) => tool.name === 'select_graph')?.toolset).toBe(TICKET_TOOLSET);
  });
});
