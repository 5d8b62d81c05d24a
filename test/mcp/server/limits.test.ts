import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate, truncate, TRUNCATION_MARK } from '../../../src-mcp/contract/limits.ts';

describe('truncate', () => {
  it('leaves short text alone and marks cut text', () => {
    expect(truncate('hello', 10)).toBe('hello');
    expect(truncate('x'.repeat(50), 30)).toBe('x'.repeat(30 - TRUNCATION_MARK.length) + TRUNCATION_MARK);
  });

  it('never exceeds the limit nor splits a surrogate pair', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 16, max: 120 }),
        (s, max) => {
          const out = truncate(s, max);
          expect(out.length).toBeLessThanOrEqual(Math.max(max, s.length <= max ? s.length : 0));
          expect(() => encodeURIComponent(out)).not.toThrow();
        },
      ),
    );
  });
});

describe('paginate', () => {
  it('reports total and the next offset', () => {
    const page = paginate([1, 2, 3, 4, 5], 1, 2);
    expect(page).toEqual({ items: [2, 3], total: 5, offset: 1, limit: 2, nextOffset: 3 });
    expect(paginate([1, 2, 3], 2, 5).nextOffset).toBeUndefined();
  });
});
