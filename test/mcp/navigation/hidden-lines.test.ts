/** Template previews have no uids: hidden lines are found by tag or by a hidden block's text. */
import { describe, expect, it } from 'vitest';
import { carriesHidingTag, withoutHiddenLines } from '../../../src-mcp/roam/hidden-blocks.ts';

describe('withoutHiddenLines', () => {
  it('drops a tagged line with its nested lines and continuation text, keeps its siblings', () => {
    const outline = ['- Agenda', '- Pay #.rm-hide', '  - numbers', '  more text', '- Actions'].join('\n');
    expect(withoutHiddenLines(outline, new Set())).toBe('- Agenda\n- Actions');
  });

  it('drops a line whose text is a hidden block (tagged higher up, outside the template)', () => {
    const outline = ['- Agenda', '  - private note', '    - deeper', '  - kept'].join('\n');
    expect(withoutHiddenLines(outline, new Set(['private note']))).toBe('- Agenda\n  - kept');
  });

  it('recognises every tag form, and not look-alikes', () => {
    for (const text of ['#.rm-hide', '[[.rm-hide]]', '#[[.rm-private]]', 'x #.rm-private y'])
      expect(carriesHidingTag(text), text).toBe(true);
    for (const text of ['#.rm-hidden', '.rm-hide', '#rm-hide', '[[.rm-hide-not]]'])
      expect(carriesHidingTag(text), text).toBe(false);
  });
});
