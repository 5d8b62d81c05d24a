import { randomInt } from 'node:crypto';

/** nanoid's URL-safe alphabet, which Roam uses for uids and token secrets. */
export const NANOID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A random string over the nanoid alphabet (crypto-strength). */
export function randomNanoid(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += NANOID_ALPHABET[randomInt(NANOID_ALPHABET.length)];
  return out;
}

/** A fresh 9-character block/page uid, like `roamAlphaAPI.util.generateUID()`. */
export function generateUid(): string {
  return randomNanoid(9);
}
