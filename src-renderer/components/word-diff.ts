/**
 * An edit's before and after as runs of words kept, deleted and inserted (longest common
 * subsequence over words and the spaces between them). Very long texts are shown as one
 * deletion and one insertion rather than compared: the tray stays responsive.
 */
export interface DiffRun {
  kind: 'same' | 'deleted' | 'inserted';
  text: string;
}

const MAX_CELLS = 250_000;

const words = (text: string) => text.split(/(\s+)/).filter(Boolean);

function push(runs: DiffRun[], kind: DiffRun['kind'], text: string): void {
  const last = runs.at(-1);
  if (last?.kind === kind) last.text += text;
  else runs.push({ kind, text });
}

export function wordDiff(before: string, after: string): DiffRun[] {
  const a = words(before);
  const b = words(after);
  if (a.length * b.length > MAX_CELLS) {
    return [
      ...(before ? [{ kind: 'deleted' as const, text: before }] : []),
      ...(after ? [{ kind: 'inserted' as const, text: after }] : []),
    ];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const runs: DiffRun[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push(runs, 'same', a[i++]!);
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      push(runs, 'deleted', a[i++]!);
    } else {
      push(runs, 'inserted', b[j++]!);
    }
  }
  return joinAcrossSpaces(runs);
}

/**
 * A space kept between two changes belongs to both sides of the change, and each stretch of
 * changes reads as one deletion then one insertion: "next week" inserted is one mark, not two.
 */
function joinAcrossSpaces(runs: DiffRun[]): DiffRun[] {
  const joined: DiffRun[] = [];
  let deleted = '';
  let inserted = '';
  const flush = () => {
    if (deleted) joined.push({ kind: 'deleted', text: deleted });
    if (inserted) joined.push({ kind: 'inserted', text: inserted });
    deleted = inserted = '';
  };
  runs.forEach((run, k) => {
    const between = (deleted || inserted) && runs[k + 1] && runs[k + 1]!.kind !== 'same';
    if (run.kind === 'same' && !run.text.trim() && between) {
      deleted += run.text;
      inserted += run.text;
    } else if (run.kind === 'deleted') deleted += run.text;
    else if (run.kind === 'inserted') inserted += run.text;
    else {
      flush();
      joined.push({ ...run });
    }
  });
  flush();
  return joined;
}
