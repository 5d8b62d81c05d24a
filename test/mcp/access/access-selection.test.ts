import { describe, expect, it } from 'vitest';
import { selectionWarning, ticketToolset, writeSelectionProblem } from '../../../src-mcp/access/selection.ts';
import { tools } from '../../../src-mcp/server/tool-catalogue.ts';

describe('the toolset a write needs for its graph ticket', () => {
  it('is the toolset of the one tool that gives tickets, select_graph', () => {
    expect(tools.filter((tool) => tool.givesTickets).map((tool) => tool.name)).toEqual(['select_graph']);
    expect(ticketToolset(tools)).toBe('core');
  });

  it('a selection without it can only read, and says which toolset to add', () => {
    expect(writeSelectionProblem('create_block', ['files'], 'core')?.message).toContain('--tools files,core');
    expect(writeSelectionProblem('create_block', ['core', 'files'], 'core')).toBeUndefined();
    expect(selectionWarning(['files'], tools)).toContain('file_upload');
    expect(selectionWarning(['navigation'], tools)).toBeUndefined();
  });
});
