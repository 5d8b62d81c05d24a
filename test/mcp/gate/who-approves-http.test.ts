/**
 * Who can approve (docs/reliability.md, "Who can approve"): app-only tools are hidden from the
 * model, not from a client, so an in-chat approval counts only where the host is one that renders
 * apps. Over HTTP that is a key made for a named client (as `install` and the tray name it); a
 * chat under any other key, though it declares MCP Apps, is never sent a proposal's one-time
 * values: with no Roam Companion showing proposals nobody can be asked, and the graph's setting
 * decides. The built bin under `serve --http`, two keys, real SDK clients, both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APPS_CAPABILITY } from '../../harness/consent-client.ts';
import { startHttpWorld, type Era, type HttpWorld } from '../../harness/http-world.ts';
import { jsonOf, newToken, textOf } from '../../harness/mcp-bin.ts';
import { uidOf } from './numbered-blocks.ts';

const TOKEN = newToken();
const STRICT = newToken();
const page = (name: string) => ({
  title: name,
  uid: uidOf(name.toLowerCase().replace(/\W/g, ''), 0),
  children: Array.from({ length: 12 }, (_, i) => `${name} line ${i}`),
});
const TITLES = (era: Era) => [`Client ${era}`, `Script ${era}`, `Strict ${era}`];

let world: HttpWorld;
beforeAll(async () => {
  world = await startHttpWorld({
    emulator: {
      graphs: [
        {
          name: 'g',
          content: ['v1', 'v2'].flatMap((era) =>
            TITLES(era as Era)
              .slice(0, 2)
              .map(page),
          ),
          tokens: [{ token: TOKEN, accessLevel: 'full' }],
        },
        {
          name: 'strict',
          content: ['v1', 'v2'].map((era) => page(`Strict ${era}`)),
          tokens: [{ token: STRICT, accessLevel: 'full' }],
        },
      ],
    },
    config: [
      { name: 'g', token: TOKEN, accessLevel: 'full' },
      { name: 'strict', token: STRICT, accessLevel: 'full', whenNobodyCanAsk: 'refuse' },
    ],
    // One key as `roam-mcp install claude-desktop --http` names it, one made by hand for a script.
    keys: { 'claude-desktop': undefined, 'my-script': undefined },
  });
}, 60_000);
afterAll(() => world?.close());

const exists = (graph: string, uid: string) =>
  world.emulator.graph(graph).run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;
const META_KEYS = ['roam-companion/approve', 'roam-companion/keep', 'roam-companion/proposal'];
const approveArgs = (result: CallToolResult) =>
  (result._meta?.['roam-companion/approve'] as { arguments: Record<string, string> } | undefined)?.arguments;

describe.each(['v1', 'v2'] as const)('%s', (era: Era) => {
  it('a key made for a named client approves in the chat; a generic key is never sent the code, and nobody is asked', async () => {
    const [clientPage, scriptPage, strictPage] = TITLES(era).map((t) => page(t).uid) as [
      string,
      string,
      string,
    ];
    const connect = (key: 'claude-desktop' | 'my-script') =>
      world.connect({ era, key: world.keys[key]!, chatId: `${era}-${key}`, capabilities: APPS_CAPABILITY });
    const client = await connect('claude-desktop');
    const script = await connect('my-script');
    try {
      for (const c of [client, script])
        for (const graph of ['g', 'strict']) jsonOf(await c.call('select_graph', { graph }));

      // The named client's host renders the approval view: the proposal's values ride in _meta.
      const held = await client.call('delete_page', { uid: clientPage, graph: 'g' });
      expect(textOf(held)).toMatch(
        /^Waiting for the person, nothing changed yet: .*in the approval shown in this chat/s,
      );
      const answer = approveArgs(held);
      expect(answer).toMatchObject({ proposal: expect.stringMatching(/^p-/), code: expect.any(String) });
      expect(exists('g', clientPage)).toBe(true);
      expect(textOf(await client.call('approve_change', answer))).toMatch(/^Approved by the person and done/);
      expect(exists('g', clientPage)).toBe(false);

      // The same write under a generic key: nobody can be asked, so the graph's setting decides.
      // By default it goes ahead (the undo is there), with no proposal, code or view data sent.
      const unasked = await script.call('delete_page', { uid: scriptPage, graph: 'g' });
      expect(unasked.isError ?? false).toBe(false);
      expect(textOf(unasked)).not.toMatch(/Waiting for the person/);
      for (const key of META_KEYS) expect(unasked._meta?.[key]).toBeUndefined();
      expect(exists('g', scriptPage)).toBe(false);

      // A graph set to refuse what nobody can be asked about refuses it, though the host renders apps.
      const refused = await script.call('delete_page', { uid: strictPage, graph: 'strict' });
      expect(refused.isError).toBe(true);
      expect(JSON.parse(textOf(refused))).toMatchObject({
        error: {
          code: 'ACCESS_LEVEL',
          setting: 'whenNobodyCanAsk',
          message: expect.stringMatching(/an approval that counts/),
        },
      });
      for (const key of META_KEYS) expect(refused._meta?.[key]).toBeUndefined();
      expect(exists('strict', strictPage)).toBe(true);
      // Nothing waits in that chat that an approve_change could answer.
      expect(jsonOf(await script.call('list_changes', {}))).not.toHaveProperty('proposals');
      const guessed = await script.call('approve_change', { proposal: 'p-madeup0000', code: 'x'.repeat(32) });
      expect(guessed.isError).toBe(true);
      expect(textOf(guessed)).toMatch(/No waiting proposal matches/);
      expect(exists('strict', strictPage)).toBe(true);

      // The named client's own write to the strict graph waits for the person, as before.
      const strictHeld = await client.call('delete_page', { uid: strictPage, graph: 'strict' });
      expect(approveArgs(strictHeld)).toBeDefined();
      expect(exists('strict', strictPage)).toBe(true);
    } finally {
      await client.close();
      await script.close();
    }
  });
});
