/**
 * Over HTTP a chat is whatever Mcp-Session-Id its client sends, and a key is whoever holds it: what
 * chats take from a graph adds up across keys and chats (src-mcp/gate/consent-ledger.ts), and a
 * Keep in one chat holds in another. Real SDK clients declaring MCP Apps, both eras, two keys made for
 * clients that render apps (named as the tray and `install` name them: their approvals count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APPS_CAPABILITY } from '../../harness/consent-client.ts';
import { startHttpWorld, type Era, type HttpWorld } from '../../harness/http-world.ts';
import { jsonOf, newToken, textOf } from '../../harness/mcp-bin.ts';
import { blocks, uidOf } from './numbered-blocks.ts';

const TOKENS = { v1: newToken(), v2: newToken() };
const pageOf = (era: Era, name: string, prefix: string) => ({
  title: `${name} ${era}`,
  uid: uidOf(`${prefix}${era}`, 0),
  children: blocks(`${prefix}${era}b`, 12),
});

let world: HttpWorld;
beforeAll(async () => {
  world = await startHttpWorld({
    emulator: {
      // A graph per era: what one era's chats take never counts in the other's.
      graphs: (['v1', 'v2'] as const).map((era) => ({
        name: era,
        content: [pageOf(era, 'Shared', 'sh'), pageOf(era, 'Spare', 'sp')],
        tokens: [{ token: TOKENS[era], accessLevel: 'full' as const }],
      })),
    },
    config: (['v1', 'v2'] as const).map((era) => ({ name: era, token: TOKENS[era], accessLevel: 'full' })),
    keys: { 'claude-desktop': undefined, cursor: undefined },
  });
}, 60_000);
afterAll(() => world?.close());

const exists = (era: Era) => (uid: string) =>
  world.emulator.graph(era).run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;
const keepOf = (result: CallToolResult) =>
  (result._meta?.['roam-companion/keep'] as { arguments: Record<string, string> }).arguments;

describe.each(['v1', 'v2'] as const)('%s', (era: Era) => {
  it('two keys, two chats, 8 blocks each from one page: the second waits for the person; a Keep holds in the other chat', async () => {
    const connect = (key: 'claude-desktop' | 'cursor', chat: string) =>
      world.connect({ era, key: world.keys[key]!, chatId: `${era}-${chat}`, capabilities: APPS_CAPABILITY });
    const a = await connect('claude-desktop', 'a');
    const b = await connect('cursor', 'b');
    try {
      for (const c of [a, b]) jsonOf(await c.call('select_graph', { graph: era }));
      const uids = blocks(`sh${era}b`, 12).map((x) => x.uid);
      expect(jsonOf(await a.call('delete_blocks', { uids: uids.slice(0, 8) }))).toMatchObject({
        succeeded: 8,
      });
      const second = await b.call('delete_blocks', { uids: [...uids.slice(8, 12), uidOf(`sp${era}b`, 0)] });
      expect(textOf(second)).toMatch(/^Waiting for the person, nothing changed yet: Delete 5 blocks/);
      expect(textOf(second)).toMatch(/already took away 8 blocks there/);
      expect(uids.slice(8).every(exists(era))).toBe(true);
      // Keep in chat b: one block of that page from chat a is held too.
      expect(textOf(await b.call('keep_change', keepOf(second)))).toMatch(/^Kept/);
      const small = await a.call('delete_block', { uid: uids[9] });
      expect(textOf(small)).toMatch(
        /^Waiting for the person, nothing changed yet: Delete 1 block on 'Shared/,
      );
      expect(exists(era)(uids[9]!)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
