/**
 * Which words an edit deleted and inserted: a longest common subsequence over words (runs of
 * spaces are words too, so joining the parts gives back each text exactly). Block texts are
 * short; past MAX_CELLS the whole texts count as replaced rather than stall the page.
 */
import { diffSequences, type SequenceEdit } from '../../../src-shared/sequence-diff.ts';

export type DiffPart = SequenceEdit;

const MAX_CELLS = 250_000;

const words = (text: string) => text.split(/(\s+)/).filter((w) => w !== '');

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before);
  const b = words(after);
  if (a.length * b.length > MAX_CELLS)
    return join([
      { kind: 'deleted', text: before },
      { kind: 'inserted', text: after },
    ]);
  return join(diffSequences(a, b));
}

/** Neighbouring parts of one kind as one part; empty parts gone. */
function join(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    if (part.text === '') continue;
    const last = out[out.length - 1];
    if (last?.kind === part.kind) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}
