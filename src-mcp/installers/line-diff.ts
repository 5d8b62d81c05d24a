/** A minimal line diff for `--dry-run`: config files are small, so plain LCS is plenty. */
import { diffSequences } from '../../src-shared/sequence-diff.ts';

/** Above this many line pairs we show the whole new text instead of a diff. */
const MAX_CELLS = 4_000_000;

/**
 * `before` → `after` as lines prefixed with "  " (kept), "- " (removed) or "+ " (added), keeping
 * only `context` unchanged lines around each change ("  ..." marks skipped lines); a new file
 * (`before` null) is all "+ " lines.
 */
export function lineDiff(before: string | null, after: string, context = 3): string {
  // A file's final line break ends its last line: it opens no empty line of its own.
  const lines = (text: string) => text.replace(/\r?\n$/, '').split(/\r?\n/);
  const b = lines(after);
  // A new file, or an empty one (the tray passes '' for none): every line is added.
  if (!before) return b.map((line) => `+ ${line}`).join('\n');
  const a = lines(before);
  if (a.length * b.length > MAX_CELLS) return after;
  const marks = { same: ' ', deleted: '-', inserted: '+' } as const;
  // Removed before added, as unified diffs read.
  const edits = diffSequences(a, b).map((edit) => ({ mark: marks[edit.kind], text: edit.text }));
  const changed = edits.map((line, index) => (line.mark === ' ' ? -1 : index)).filter((index) => index >= 0);
  const near = (index: number) => changed.some((c) => Math.abs(c - index) <= context);
  const out: string[] = [];
  edits.forEach((line, index) => {
    if (near(index)) out.push(`${line.mark} ${line.text}`);
    else if (out.at(-1) !== '  ...') out.push('  ...');
  });
  // Lines skipped after the last change need no mark: the diff simply ends there.
  if (out.at(-1) === '  ...') out.pop();
  return out.join('\n');
}
