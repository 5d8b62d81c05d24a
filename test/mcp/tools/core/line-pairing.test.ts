/** Which changed line takes the place of which block: alike texts only, the closest pairs first. */
import { describe, expect, it } from 'vitest';
import { alike, pairAlike } from '../../../../src-mcp/tools/core/line-pairing.ts';

const pairs = (lines: string[], blocks: Record<string, string>) => {
  const found: Record<string, string> = {};
  pairAlike(
    lines.map((string) => ({ string })),
    Object.keys(blocks),
    (uid) => blocks[uid] ?? '',
    (line, uid) => (found[line.string] = uid),
  );
  return found;
};

describe('alike', () => {
  it('counts an edited or extended text as alike, and an unrelated one not', () => {
    expect(alike('beta', 'beta, renamed').score).toBeGreaterThanOrEqual(0.5);
    expect(alike('A draft of the plan', 'A draft of the final plan').score).toBeGreaterThanOrEqual(0.5);
    expect(alike('gamma', 'fresh heading').score).toBeLessThan(0.5);
    expect(alike('beta child', 'new under beta').score).toBeLessThan(0.5);
  });
});

describe('pairAlike', () => {
  it('gives each line the closest block when several hold it', () => {
    expect(
      pairs(['section 77 text here edited', 'section 7 text here edited'], {
        s7: 'section 7 text here',
        s77: 'section 77 text here',
      }),
    ).toEqual({ 'section 77 text here edited': 's77', 'section 7 text here edited': 's7' });
  });

  it('pairs through shared words when there are too many lines and blocks to compare all', () => {
    const blocks = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [`b${i}`, `note number${i} about topic${i}`]),
    );
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `note number${999 - i} about topic${999 - i}, revised`,
    );
    const found = pairs(lines, blocks);
    expect(Object.keys(found)).toHaveLength(1000);
    expect(found['note number5 about topic5, revised']).toBe('b5');
  });

  it('leaves unrelated lines and blocks unpaired', () => {
    expect(pairs(['fresh heading'], { g: 'gamma' })).toEqual({});
  });
});
