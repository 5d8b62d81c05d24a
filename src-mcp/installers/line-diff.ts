/** A minimal line diff for `--dry-run`: config files are small, so plain LCS is plenty. */

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
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Removed before added, as unified diffs read.
      lines.push({ mark: '-', text: a[i++]! });
    } else {
      lines.push({ mark: '+', text: b[j++]! });
    }
  }
  const changed = lines.map((line, index) => (line.mark === ' ' ? -1 : index)).filter((index) => index >= 0);
  const near = (index: number) => changed.some((c) => Math.abs(c - index) <= context);
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (near(index)) out.push(`${line.mark} ${line.text}`);
    else if (out.at(-1) !== '  ...') out.push('  ...');
  });
  return out.join('\n');
}
