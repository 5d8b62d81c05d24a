/**
 * Proposals are bound to their chat: over HTTP one server serves many chats (src-mcp/http/), and
 * another chat holding a proposal's id and code, even with the same key, cannot answer it nor see
 * it, nor read what became of it (read_proposal); two chats' proposals wait side by side and each
 * answers its own. Both eras, real SDK clients declaring MCP Apps, under a key made for a client
 * that renders apps (named as `install` names it: its approvals count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APPS_CAPABILITY } from '../../harness/consent-client.ts';
import { startHttpWorld, type Era, type HttpWorld } from '../../harness/http-world.ts';
import { jsonOf, newToken, textOf } from '../../harness/mcp-bin.ts';
import { uidOf } from './numbered-blocks.ts';

const TOKEN = newToken();
const page = (name: string) => ({
  title: name,
  uid: uidOf(name.toLowerCase().replace(/\W/g, ''), 0),
  children: Array.from({ length: 12 }, (_, i) => `${name} line ${i}`),
});

let world: HttpWorld;
beforeAll(async () => {
  world = await startHttpWorld({
    emulator: {
      graphs: [
        {
          name: 'g',
          content: ['A v1', 'B v1', 'A v2', 'B v2'].map(page),
          tokens: [{ token: TOKEN, accessLevel: 'full' }],
        },
      ],
    },
    config: [{ name: 'g', token: TOKEN, accessLevel: 'full' }],
    keys: { 'claude-desktop': undefined },
  });
}, 60_000);
afterAll(() => world?.close());

const exists = (uid: string) =>
  world.emulator.graph('g').run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;
const approveArgs = (result: CallToolResult) =>
  (result._meta?.['roam-companion/approve'] as { arguments: Record<string, string> }).arguments;

describe.each(['v1', 'v2'] as const)('%s', (era: Era) => {
  it('another chat cannot answer or see a proposal; each chat answers its own', async () => {
    const connect = (chat: string) =>
      world.connect({
        era,
        key: world.keys['claude-desktop']!,
        chatId: `${era}-${chat}`,
        capabilities: APPS_CAPABILITY,
      });
    const a = await connect('a');
    const b = await connect('b');
    try {
      for (const c of [a, b]) jsonOf(await c.call('select_graph', { graph: 'g' }));
      const pageA = page(`A ${era}`).uid;
      const pageB = page(`B ${era}`).uid;
      const fromA = approveArgs(await a.call('delete_page', { uid: pageA }));
      const fromB = approveArgs(await b.call('delete_page', { uid: pageB }));
      const stolen = await b.call('approve_change', fromA);
      expect(stolen.isError).toBe(true);
      expect(textOf(stolen)).toMatch(/No waiting proposal matches/);
      expect(JSON.stringify(jsonOf(await b.call('list_changes', {})))).not.toContain(fromA.proposal);
      // Its fate too is its own chat's: to another, the id is unknown like a made-up one.
      const fate = async (c: typeof a, id: string) => jsonOf(await c.call('read_proposal', { proposal: id }));
      const asIf = async (id: string) => ({ ...(await fate(b, id)), id: 'any' });
      expect(await asIf(fromA.proposal!)).toEqual(await asIf('p-madeup0000'));
      expect(await fate(b, fromA.proposal!)).toMatchObject({ status: 'unknown' });
      expect(await fate(a, fromA.proposal!)).toEqual({ id: fromA.proposal, status: 'waiting' });
      expect(exists(pageA)).toBe(true);
      expect(textOf(await b.call('approve_change', fromB))).toMatch(/^Approved by the person and done/);
      expect(exists(pageB)).toBe(false);
      expect(textOf(await a.call('approve_change', fromA))).toMatch(/^Approved by the person and done/);
      expect(exists(pageA)).toBe(false);
      expect(await fate(a, fromA.proposal!)).toMatchObject({ status: 'approved' });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
