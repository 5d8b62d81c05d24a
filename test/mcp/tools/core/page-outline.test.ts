/** update_page_markdown's reading of markdown into blocks in Roam's stored form. */
import { describe, expect, it } from 'vitest';
import { parseOutline, storedForm } from '../../../../src-mcp/tools/core/page-outline.ts';

describe('parseOutline', () => {
  it('reads get_page’s answer back: title line skipped, uid tags as hints, headings, several lines', () => {
    const markdown = [
      '# Project <roam uid="pageuid01"/>',
      '',
      '- ## Goals <roam uid="goals0001" refs="2"/>',
      '  - ship it ((abc123xyz))<ref>the preview</ref> <roam uid="ship00001"/>',
      '  - first line',
      '    second line <roam uid="multi0001"/>',
      '- plain',
    ].join('\n');
    expect(parseOutline(markdown)).toEqual([
      {
        string: 'Goals',
        heading: 2,
        uidHint: 'goals0001',
        children: [
          { string: 'ship it ((abc123xyz))', uidHint: 'ship00001', children: [] },
          { string: 'first line\nsecond line', uidHint: 'multi0001', children: [] },
        ],
      },
      { string: 'plain', children: [] },
    ]);
  });

  it('nests by two spaces or a tab, takes * + and 1. as markers, and keeps text before the outline', () => {
    expect(parseOutline('intro text\n* a\n\t+ b\n1. c\n- ')).toEqual([
      { string: 'intro text', children: [] },
      { string: 'a', children: [{ string: 'b', children: [] }] },
      { string: 'c', children: [] },
      { string: '', children: [] },
    ]);
  });

  it('clamps #### to a level-3 heading', () => {
    expect(parseOutline('- #### deep')).toEqual([{ string: 'deep', heading: 3, children: [] }]);
  });
});

describe('storedForm', () => {
  it('writes italics as Roam stores them and leaves bold, snake_case and lone marks alone', () => {
    expect(storedForm('an *italic* and _other_ word')).toBe('an __italic__ and __other__ word');
    expect(storedForm('**bold** and __kept__')).toBe('**bold** and __kept__');
    expect(storedForm('snake_case_name and 2 * 3 * 4')).toBe('snake_case_name and 2 * 3 * 4');
  });
});
