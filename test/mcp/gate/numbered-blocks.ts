/** Pages of numbered blocks for the gate's tests, with uids a test can name without reading them back. */

/** A nine-character uid: the prefix, then `i` padded with zeros. */
export const uidOf = (prefix: string, i: number) => `${prefix}${String(i).padStart(9 - prefix.length, '0')}`;

/** `n` blocks, `<prefix> line <i>`, each with the uid uidOf(prefix, i). */
export const blocks = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ string: `${prefix} line ${i}`, uid: uidOf(prefix, i) }));
