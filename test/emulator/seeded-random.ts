import { NANOID_ALPHABET } from './roam-uid.ts';

/** A small deterministic PRNG (mulberry32): the same seed always yields the same sequence. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A 9-character uid over the nanoid alphabet. */
  uid(): string {
    let out = '';
    for (let i = 0; i < 9; i++) out += NANOID_ALPHABET[this.int(NANOID_ALPHABET.length)];
    return out;
  }
}
