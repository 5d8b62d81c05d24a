/**
 * Which words an edit deleted and inserted: a longest common subsequence over words (runs of
 * spaces are words too, so joining the parts gives back each text exactly). Block texts are
 * short; past MAX_CELLS the whole texts count as replaced rather than stall the page.
 */
export interface DiffPart {
  kind: 'same' | 'deleted' | 'inserted';
  text: string;
}

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
  // common[i][j]: the longest common run of words of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] =
        a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      parts.push({ kind: 'deleted', text: a[i++]! });
    } else {
      parts.push({ kind: 'inserted', text: b[j++]! });
    }
  }
  return join(parts);
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
