import { describe, expect, it } from 'vitest';
import { wordDiff } from '../../../src-renderer/components/word-diff.ts';

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
