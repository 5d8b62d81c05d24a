/** A minimal line diff for `--dry-run`: config files are small, so plain LCS is plenty. */
import { diffSequences } from '../../src-shared/sequence-diff.ts';

/** Above this many line pairs we show the whole new text instead of a diff. */
const MAX_CELLS = 4_000_000;

/**
 * `before` → `after` as lines prefixed with "  " (kept), "- " (removed) or "+ " (added), keeping
 * only `context` unchanged lines around each change ("  ..." marks skipped lines).
 */
export function lineDiff(before: string, after: string, context = 3): string {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  if (a.length * b.length > MAX_CELLS) return after;
  const marks = { same: ' ', deleted: '-', inserted: '+' } as const;
  // Removed before added, as unified diffs read.
  const lines = diffSequences(a, b).map((edit) => ({ mark: marks[edit.kind], text: edit.text }));
  const changed = lines.map((line, index) => (line.mark === ' ' ? -1 : index)).filter((index) => index >= 0);
  const near = (index: number) => changed.some((c) => Math.abs(c - index) <= context);
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (near(index)) out.push(`${line.mark} ${line.text}`);
    else if (out.at(-1) !== '  ...') out.push('  ...');
  });
  return out.join('\n');
}
