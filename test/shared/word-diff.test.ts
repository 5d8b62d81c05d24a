/**
 * The word diff the tray and the change-review app share (src-shared/word-diff.ts): whatever the
 * two texts, the kept and deleted runs give back the old text and the kept and inserted runs the
 * new one, exactly; a change of one word marks that word only.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordDiff } from '../../src-shared/word-diff.ts';

const side = (runs: ReturnType<typeof wordDiff>, drop: 'inserted' | 'deleted') =>
  runs
    .filter((r) => r.kind !== drop)
    .map((r) => r.text)
    .join('');

describe('word diff of an edit', () => {
  it('marks only the words that changed, and each side reads back as its text', () => {
    const before = 'Ship the [[Roam Companion]] beta by [[December 1st, 2026]]';
    const after = 'Ship the beta next week';
    const runs = wordDiff(before, after);
    expect(side(runs, 'inserted')).toBe(before);
    expect(side(runs, 'deleted')).toBe(after);
    expect(runs.filter((r) => r.kind === 'inserted').map((r) => r.text.trim())).toEqual(['next week']);
    expect(runs.find((r) => r.kind === 'same')?.text).toBe('Ship the ');
  });

  it('an unchanged text has no marks; an emptied or new text is one run', () => {
    expect(wordDiff('same words', 'same words')).toEqual([{ kind: 'same', text: 'same words' }]);
    expect(wordDiff('gone', '')).toEqual([{ kind: 'deleted', text: 'gone' }]);
    expect(wordDiff('', 'new')).toEqual([{ kind: 'inserted', text: 'new' }]);
  });

  it('a text too long to compare word by word is shown whole on both sides', () => {
    const long = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
    const runs = wordDiff(long, `${long} more`);
    expect(side(runs, 'inserted')).toBe(long);
    expect(side(runs, 'deleted')).toBe(`${long} more`);
  });
});

describe('word diff, as the change-review app draws it', () => {
  it('marks only the words that changed', () => {
    expect(wordDiff('Met on Monday about [[Project X]]', 'Met on Tuesday about [[Project X]]')).toEqual([
      { kind: 'same', text: 'Met on ' },
      { kind: 'deleted', text: 'Monday' },
      { kind: 'inserted', text: 'Tuesday' },
      { kind: 'same', text: ' about [[Project X]]' },
    ]);
    expect(wordDiff('alpha', 'alpha, rewritten')).toEqual([
      { kind: 'deleted', text: 'alpha' },
      { kind: 'inserted', text: 'alpha, rewritten' },
    ]);
    expect(wordDiff('', 'new')).toEqual([{ kind: 'inserted', text: 'new' }]);
  });

  it('gives back both texts exactly, whatever they are', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', ' ', '  ', '\n', 'é', '[[x]]'), { maxLength: 30 });
    fc.assert(
      fc.property(text, text, (x, y) => {
        const [before, after] = [x.join(''), y.join('')];
        const parts = wordDiff(before, after);
        expect(side(parts, 'inserted')).toBe(before);
        expect(side(parts, 'deleted')).toBe(after);
        for (let k = 1; k < parts.length; k++) expect(parts[k]!.kind).not.toBe(parts[k - 1]!.kind);
      }),
    );
  });

  it('a very long edit is shown whole as replaced, at once', () => {
    const long = (w: string) => Array.from({ length: 1000 }, (_, k) => `${w}${k}`).join(' ');
    const parts = wordDiff(long('a'), long('b'));
    expect(parts.map((p) => p.kind)).toEqual(['deleted', 'inserted']);
  });
});
