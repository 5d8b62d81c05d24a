/**
 * update_page_markdown's last matching step (page-plan.ts): under one parent, which changed line
 * takes the place of which unmatched block. A pair must be alike (below); the most alike pairs go
 * first, ties to the pair closest in length. With many lines and blocks under one parent, only
 * blocks sharing a word with the line are compared, so the cost stays near linear.
 */
import { bigrams, diceOfBigrams, normalizeName } from '../../navigation/dice.ts';

/** The least Dice coefficient for "alike". */
const SIMILAR = 0.5;
/** Or the least share of the shorter text's bigrams the longer one holds (words added). */
const CONTAINED = 0.8;
/** Up to this many line × block comparisons under one parent, every pair is compared. */
const ALL_PAIRS = 20_000;
/** A word held by more blocks than this says nothing about which one a line is. */
const COMMON_WORD = 50;

export interface Alike {
  /** 0–1; below SIMILAR: not alike. */
  score: number;
  dice: number;
}

/**
 * How alike two texts are: the Dice coefficient of their character bigrams, or, when the longer
 * one holds at least 80% of the shorter one's (three or more) bigrams, that share: a text with
 * words added, the commonest edit, still counts as the same block.
 */
export function alike(a: string, b: string): Alike {
  const [x, y] = [bigrams(normalizeName(a)), bigrams(normalizeName(b))];
  const dice = diceOfBigrams(x, y);
  const shorter = Math.min(x.length, y.length);
  const held = shorter >= 3 ? (dice * (x.length + y.length)) / 2 / shorter : 0;
  return { score: held >= CONTAINED ? Math.max(dice, held) : dice, dice };
}

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** For each line, the blocks worth comparing it with. */
function candidates<L extends { string: string }>(
  lines: readonly L[],
  blocks: readonly string[],
  textOf: (uid: string) => string,
): (line: L) => readonly string[] {
  if (lines.length * blocks.length <= ALL_PAIRS) return () => blocks;
  const byWord = new Map<string, string[]>();
  for (const uid of blocks)
    for (const word of words(textOf(uid))) {
      const holders = byWord.get(word) ?? [];
      holders.push(uid);
      byWord.set(word, holders);
    }
  return (line) => {
    const found = new Set<string>();
    for (const word of words(line.string)) {
      const holders = byWord.get(word);
      if (holders && holders.length <= COMMON_WORD) for (const uid of holders) found.add(uid);
    }
    return [...found];
  };
}

/** Pairs each line with at most one block and back, most alike first; `claim` gets each pair. */
export function pairAlike<L extends { string: string }>(
  lines: readonly L[],
  blocks: readonly string[],
  textOf: (uid: string) => string,
  claim: (line: L, uid: string) => void,
): void {
  if (!lines.length || !blocks.length) return;
  const compared = candidates(lines, blocks, textOf);
  const pairs: Array<{ line: L; uid: string } & Alike> = [];
  for (const line of lines)
    for (const uid of compared(line)) {
      const how = alike(textOf(uid), line.string);
      if (how.score >= SIMILAR) pairs.push({ line, uid, ...how });
    }
  pairs.sort((a, b) => b.score - a.score || b.dice - a.dice);
  const usedLines = new Set<L>();
  const usedBlocks = new Set<string>();
  for (const { line, uid } of pairs) {
    if (usedLines.has(line) || usedBlocks.has(uid)) continue;
    usedLines.add(line);
    usedBlocks.add(uid);
    claim(line, uid);
  }
}
