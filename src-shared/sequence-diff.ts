/**
 * A shortest edit from one sequence of texts to another (a longest common subsequence): each item
 * kept, deleted or inserted, deletions before insertions where both could come first. Quadratic:
 * callers cap the sizes they diff (the installers' line diff, the change-review app's word diff).
 */
export interface SequenceEdit {
  kind: 'same' | 'deleted' | 'inserted';
  text: string;
}

export function diffSequences(a: readonly string[], b: readonly string[]): SequenceEdit[] {
  // common[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] =
        a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const edits: SequenceEdit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ kind: 'same', text: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      edits.push({ kind: 'deleted', text: a[i++]! });
    } else {
      edits.push({ kind: 'inserted', text: b[j++]! });
    }
  }
  return edits;
}
