/**
 * A write refused because it is addressed to a block hidden from AI is refused before the consent
 * question (docs/mcp.md, Hidden blocks): the person is never asked to approve a write that will not
 * be made, even one who would accept it. A delete that carries hidden blocks with a visible one is
 * asked as before, counting them, quoting none. Real SDK clients with form elicitation, both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentClient, type ConsentClient, type Era } from '../harness/consent-client.ts';
import { errorOf, jsonOf } from '../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../harness/stdio-world.ts';

let world: StdioWorld;
beforeAll(async () => {
  world = await startOneGraphWorld(
    ['1', '2'].map((t) => ({
      title: `Vault ${t}`,
      uid: `vaultpg0${t}`,
      children: [
        {
          string: `safe ${t} 3141 #.rm-private`,
          uid: `safeblk0${t}`,
          // More than ten blocks: a delete of them all is asked (src-mcp/gate/thresholds.ts).
          children: [
            { string: `dial ${t} 2718`, uid: `dialblk0${t}` },
            ...Array.from({ length: 11 }, (_, i) => ({ string: `tumbler ${i} 2718` })),
          ],
        },
        {
          string: `shelf ${t}`,
          uid: `shelfbk0${t}`,
          children: [
            {
              string: `box ${t} 1618 #.rm-hide`,
              uid: `boxblk00${t}`,
              children: Array.from({ length: 11 }, (_, i) => ({ string: `coin ${i} 1618` })),
            },
          ],
        },
      ],
    })),
  );
});
afterAll(() => world?.close());

const exists = (uid: string) =>
  world.emulator.graph('g').run('data.q', ['[:find ?b . :in $ ?u :where [?b :block/uid ?u]]', uid]) !== null;

describe.each([
  ['2025-11-25', '1'],
  ['2026-07-28', '2'],
] as const)('on %s', (era: Era, t) => {
  let c: ConsentClient;
  beforeAll(async () => {
    c = await consentClient(world.home, era, { answer: () => 'accept' });
    jsonOf(await c.call('select_graph', { graph: 'g' }));
  });
  afterAll(() => c?.close());

  it('asks about a visible block carrying hidden ones, counting them, quoting nothing hidden', async () => {
    jsonOf(await c.call('delete_block', { uid: `shelfbk0${t}` }));

    expect(c.asked).toHaveLength(1);
    expect(c.asked[0]).toContain('12 hidden blocks');
    expect(c.asked[0]).not.toContain('1618');
    expect(exists(`boxblk00${t}`)).toBe(false);
    c.asked.length = 0;
  });

  it('refuses a delete and an edit of a hidden block without asking the person', async () => {
    const deleted = errorOf(await c.call('delete_block', { uid: `safeblk0${t}` }));
    const edited = errorOf(
      await c.call('update_blocks', { updates: [{ uid: `dialblk0${t}`, string: 'x' }] }),
    );

    expect([deleted.code, edited.code]).toEqual(['HIDDEN_CONTENT', 'HIDDEN_CONTENT']);
    expect(c.asked).toEqual([]);
    expect(exists(`safeblk0${t}`)).toBe(true);
    expect(exists(`dialblk0${t}`)).toBe(true);
  });
});
