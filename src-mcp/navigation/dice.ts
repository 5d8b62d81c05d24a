/** Dice-coefficient name matching: `resolve_pages` strategy "fuzzy", suggestions (docs/navigation.md). */

/** Lower-cases and drops whitespace and punctuation, so "machine-learning" meets "Machine Learning". */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, '');
}

/** Sorted character bigram codes of a normalized name (a multiset: repeats kept). */
export function bigrams(normalized: string): Float64Array {
  const points = Array.from(normalized, (c) => c.codePointAt(0)!);
  const codes = new Float64Array(Math.max(0, points.length - 1));
  // Two 21-bit code points make one exact integer below 2^53: no collisions.
  for (let i = 0; i < codes.length; i++) codes[i] = points[i]! * 0x200000 + points[i + 1]!;
  return codes.sort();
}

/** Dice coefficient of two sorted bigram multisets: 2·|A∩B| / (|A|+|B|). */
export function diceOfBigrams(a: Float64Array, b: Float64Array): number {
  if (a.length + b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return (2 * shared) / (a.length + b.length);
}
