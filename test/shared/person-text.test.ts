/**
 * Text from an agent or a graph made safe where it cannot be isolated (src-shared/person-text.ts),
 * tried as a hostile title would: no direction, control or zero-width character survives, markup
 * is escaped, and every result is bounded, whatever the input.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  cutText,
  escapeMarkup,
  outcomeForPerson,
  plainLine,
  plainLines,
} from '../../src-shared/person-text.ts';

const HOSTILE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\p{Cc}]/u;

it('a right-to-left override cannot reverse the words after it, and no invisible character is left', () => {
  const line = plainLine('Plans\u202E 1000 blocks\u2066 and\u200B\nApprove\u061c is\u200f safe\u2028', 200);
  expect(line).toBe('Plans 1000 blocks and Approve is safe');
  expect(line).not.toMatch(HOSTILE);
});

it('whatever the text, a plain line has no hostile character and is at most its length', () => {
  const chars = fc.constantFrom(
    'a',
    ' ',
    '\n',
    '\t',
    '\u202e',
    '\u2066',
    '\u200b',
    '\u200e',
    '\u061c',
    '😀',
    'é',
    '<',
  );
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 300 }), fc.integer({ min: 1, max: 100 }), (parts, max) => {
      const line = plainLine(parts.join(''), max);
      expect(line).not.toMatch(HOSTILE);
      expect([...line].length).toBeLessThanOrEqual(max);
      expect(line).not.toMatch(/\uFFFD/);
    }),
  );
});

it('a 5,000-character title is cut with "…", never splitting an emoji', () => {
  expect(plainLine('t'.repeat(5000), 80)).toBe(`${'t'.repeat(79)}…`);
  expect(cutText('😀'.repeat(10), 4)).toBe('😀😀😀…');
  expect(cutText('short', 80)).toBe('short');
});

it('several lines keep their breaks, each line plain and the whole bounded', () => {
  expect(plainLines('one\u202E\ntwo', 10, 100)).toBe('one\ntwo');
  expect([...plainLines('x'.repeat(50).concat('\n').repeat(100), 20, 300)].length).toBe(300);
});

it('markup is escaped so a notification daemon shows it as typed', () => {
  expect(escapeMarkup('<b>Approve</b> & <a href="x">go</a>')).toBe(
    '&lt;b&gt;Approve&lt;/b&gt; &amp; &lt;a href="x"&gt;go&lt;/a&gt;',
  );
  expect(escapeMarkup('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
});

it('an approval’s outcome is the person’s: no tool name, no “the person”, their own ways of undoing', () => {
  expect(
    outcomeForPerson('Approved by the person and done (delete_page); it can be undone with undo_changes.'),
  ).toBe(
    'Approved and done. To take it back: Activity in Roam Companion, `roam-mcp undo` in a terminal, or ask the agent to undo it.',
  );
  expect(outcomeForPerson('Kept: the person chose to keep things as they are. Nothing was changed.')).toBe(
    'Kept as it is: nothing was changed.',
  );
  expect(
    outcomeForPerson(
      'Approved, but delete_page failed: {"error":{"code":"NOT_FOUND","message":"No block \'abc123xyz\'."}}',
    ),
  ).toBe(
    'Approved, but it could not be done: the agent was told why. Activity in Roam Companion shows anything that changed.',
  );
  // Another line keeps its words; only its agent undo is replaced.
  expect(outcomeForPerson('Undid 3 changes; it can be undone with undo_changes.')).toBe(
    'Undid 3 changes. To take it back: Activity in Roam Companion, `roam-mcp undo` in a terminal, or ask the agent to undo it.',
  );
  expect(outcomeForPerson('Kept: nothing changed.')).toBe('Kept: nothing changed.');
});
