/**
 * The change-review app's word diff (src-mcp/apps/change-review/word-diff.ts): whatever the two
 * texts, the kept and deleted parts give back the old text and the kept and inserted parts the
 * new one, exactly; a change of one word marks that word only.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { wordDiff, type DiffPart } from '../../../../src-mcp/apps/change-review/word-diff.ts';

const side = (parts: DiffPart[], drop: DiffPart['kind']) =>
  parts
    .filter((p) => p.kind !== drop)
    .map((p) => p.text)
    .join('');

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
