/**
 * Text an agent or a graph wrote, made safe to show a person where it cannot be isolated: a
 * question in plain text, a native notification, a message box. No control, direction or
 * zero-width character survives (a title cannot reverse "1000 blocks" or hide words), and every
 * piece is cut to a length. Imports nothing: the renderer, the server and the tray use it alike.
 */

/** Unicode's explicit direction marks, embeddings, overrides and isolates. */
export const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Controls and invisible formatting: direction controls, zero-width spaces and joiners, line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` cut to `max` characters (code points, so no surrogate pair is split), "…" marking the cut. */
export function cutText(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, Math.max(0, max - 1)).join('')}…` : text;
}

/** One line, no control, direction or zero-width character, cut to `max`. */
export function plainLine(text: string, max: number): string {
  const line = text.replace(INVISIBLE, ' ').replace(/\s+/gu, ' ').trim();
  return cutText(line, max);
}

/** Several lines, each a plain line (at most `lineMax`), the whole cut to `max`. */
export function plainLines(text: string, lineMax: number, max: number): string {
  const lines = text.split('\n').map((line) => plainLine(line, lineMax));
  return cutText(lines.join('\n'), max);
}

/**
 * `text` as markup that shows it literally: Linux notification daemons render a body's `<b>`,
 * `<a href>` and `<img>` (the freedesktop "body-markup" capability), so a body there is escaped.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The server's outcome line names an agent tool for undoing; the person undoes elsewhere. */
const AGENT_UNDO = /[;.] it can be undone with undo_changes\.?/;
const PERSON_UNDO =
  'To take it back: Activity in Roam Companion, `roam-mcp undo` in a terminal, or ask the agent to undo it.';

/**
 * The server's outcome lines (written for the model: "by the person", the tool's name) as the
 * person reads them about their own answer. Any other line is kept, its agent undo replaced.
 */
const PERSON_LINES: ReadonlyArray<[RegExp, string]> = [
  [
    /^Approved by the person and done \([^)]*\)[;.] it can be undone with undo_changes\.?/,
    `Approved and done. ${PERSON_UNDO}`,
  ],
  [
    /^Kept: the person chose to keep things as they are\. Nothing was changed\./,
    'Kept as it is: nothing was changed.',
  ],
  // The write's own error is for the model: JSON, codes, perhaps a uid.
  [
    /^Approved, but \S+ failed: [\s\S]*$/,
    'Approved, but it could not be done: the agent was told why. Activity in Roam Companion shows anything that changed.',
  ],
];

/**
 * What became of an approval, as a person reads it in the approval view or Roam Companion: the
 * model's line (which tells the agent to use undo_changes) points the person to their own ways.
 */
export function outcomeForPerson(outcome: string): string {
  for (const [line, words] of PERSON_LINES) if (line.test(outcome)) return outcome.replace(line, words);
  return outcome.replace(AGENT_UNDO, `. ${PERSON_UNDO}`);
}
