/**
 * The consent rule is code in one place (src-mcp/gate/thresholds.ts) and prose in two (docs/mcp.md's
 * "The rule." and docs/guide.md's "Before an agent takes much away"): every number the prose
 * states is the one the code holds, so a changed threshold fails here until the words follow.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ASK_ABOVE_BLOCKS,
  ASK_ABOVE_CHANGES,
  ASK_ABOVE_FILES,
  ASK_ABOVE_LINKS,
  DECLINE_MEMORY_MS,
  WINDOW_MS,
} from '../../../src-mcp/gate/thresholds.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The paragraph that starts with `start`, up to the next blank line, on one line. */
function paragraph(text: string, start: string): string {
  const at = text.indexOf(start);
  expect(at, `"${start}" not found`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n\n', at);
  return text.slice(at, end < 0 ? undefined : end).replace(/\s+/g, ' ');
}

/** "10 minutes", or "hour" for 60: how the prose says a duration. */
const spoken = (ms: number) => (ms === 60 * 60_000 ? 'hour' : `${ms / 60_000} minutes`);

const rules = [
  ['docs/mcp.md', '**The rule.**'],
  ['docs/guide.md', '**Before an agent takes much away, the person decides**'],
] as const;

describe('the consent thresholds the docs state are the code’s', () => {
  it.each(rules)('%s', (file, start) => {
    const rule = paragraph(read(file), start);
    const counts = [...rule.matchAll(/more than (\d+) (blocks?|changes)( link to)?/g)];
    expect(counts.length).toBeGreaterThanOrEqual(3);
    for (const [phrase, n, what, linkTo] of counts) {
      const expected = linkTo ? ASK_ABOVE_LINKS : what === 'changes' ? ASK_ABOVE_CHANGES : ASK_ABOVE_BLOCKS;
      expect(Number(n), phrase).toBe(expected);
    }
    expect(rule).toContain(spoken(WINDOW_MS));
    expect(rule).toContain(`last ${spoken(DECLINE_MEMORY_MS)}`);
    for (const [phrase, n] of rule.matchAll(/(\d+) minutes/g))
      expect(Number(n) * 60_000, phrase).toBe(WINDOW_MS);
    // Any file at all is asked about only while the threshold is zero.
    expect(ASK_ABOVE_FILES === 0).toBe(/\bany file\b/.test(rule));
  });
});
