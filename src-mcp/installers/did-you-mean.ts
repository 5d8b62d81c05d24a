/** The known names closest to a mistyped one, for "did you mean" (nothing when none is close). */
export function closestNames(typed: string, known: readonly string[]): string[] {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return [];
  // A prefix or a part names what was meant ("claude" → claude-desktop, claude-code).
  const partial = known.filter(
    (name) => name.startsWith(wanted) || (wanted.length >= 4 && name.includes(wanted)),
  );
  if (partial.length > 0) return partial;
  const scored = known.map((name) => ({ name, distance: editDistance(wanted, name) }));
  const best = Math.min(...scored.map((s) => s.distance));
  // Up to a third of the name may be wrong: "curser", "vs-code", "claude-destkop".
  if (best > Math.max(2, Math.floor(wanted.length / 3))) return [];
  return scored.filter((s) => s.distance === best).map((s) => s.name);
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
