/**
 * An edit's before and after as runs of words kept, deleted and inserted (the shared longest
 * common subsequence, sequence-diff.ts, over words and the spaces between them), for the tray's
 * Activity and approvals and the change-review app alike. Very long texts are shown as one
 * deletion and one insertion rather than compared: the view stays responsive.
 */
import { diffSequences, type SequenceEdit } from './sequence-diff.ts';

export type DiffRun = SequenceEdit;

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
  const runs: DiffRun[] = [];
  for (const edit of diffSequences(a, b)) push(runs, edit.kind, edit.text);
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
