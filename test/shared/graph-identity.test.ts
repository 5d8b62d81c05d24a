/** A graph is its (type, name): a missing type is hosted, and offline:x is not hosted:x. */
import { describe, expect, it } from 'vitest';
import { graphId, sameGraph } from '../../src-shared/constants.ts';

describe('graph identity', () => {
  it('applies the default type and tells the types apart', () => {
    expect(sameGraph({ name: 'Work' }, { name: 'Work', type: 'hosted' })).toBe(true);
    expect(sameGraph({ name: 'Work', type: 'offline' }, { name: 'Work' })).toBe(false);
    expect(sameGraph({ name: 'Work' }, { name: 'work' })).toBe(false);
    expect(graphId({ name: 'Work', type: 'offline' })).toBe('offline:Work');
  });
});
