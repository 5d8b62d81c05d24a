/**
 * "Let the AI draft, I approve every change": `"confirm": "every-write"` at the top of
 * ~/.roam-tools.json (and per graph, a graph's own winning) makes every write a question or a
 * waiting proposal, a one-block create included. Through the built bin with real SDK clients:
 * a decline writes nothing; a yes writes it once, journaled; a proposal's Approve writes it once;
 * a client that can ask nobody is refused; a graph set back to `destructive` asks nothing small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { consentClient, type Answer, type ConsentClient, type Era } from '../../harness/consent-client.ts';
import { jsonOf, newToken, textOf } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { uidOf } from './numbered-blocks.ts';

const CAREFUL = newToken();
const RELAXED = newToken();

let world: StdioWorld;
beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        {
          name: 'careful',
          tokens: [{ token: CAREFUL, accessLevel: 'full' }],
          content: [{ title: 'Drafts', uid: uidOf('dr', 0), children: ['first'] }],
        },
        {
          name: 'relaxed',
          tokens: [{ token: RELAXED, accessLevel: 'full' }],
          content: [{ title: 'Drafts', uid: uidOf('rx', 0), children: ['first'] }],
        },
      ],
    },
    config: {
      text: JSON.stringify({
        version: 1,
        confirm: 'every-write',
        graphs: [
          { name: 'careful', token: CAREFUL, accessLevel: 'full' },
          { name: 'relaxed', token: RELAXED, accessLevel: 'full', confirm: 'destructive' },
        ],
      }),
      mode: 0o600,
    },
  });
});
afterAll(() => world?.close());

const clients: ConsentClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));
async function chat(era: Era, options: { answer?: () => Answer; apps?: boolean } = {}) {
  const c = await consentClient(world.home, era, options);
  clients.push(c);
  for (const graph of ['careful', 'relaxed']) jsonOf(await c.call('select_graph', { graph }));
  return c;
}

const count = (graph: string, text: string) =>
  world.emulator
    .graph(graph)
    .run('data.q', ['[:find (count ?b) . :in $ ?s :where [?b :block/string ?s]]', text]) ?? 0;
const approveOf = (result: CallToolResult) =>
  (result._meta?.['roam-companion/approve'] as { arguments: { proposal: string; code: string } }).arguments;

describe.each(['2025-11-25', '2026-07-28'] as const)('on %s', (era: Era) => {
  it('a one-block create is asked; a decline writes nothing, a yes writes it once, journaled', async () => {
    let answer: Answer = 'decline';
    const c = await chat(era, { answer: () => answer });
    const text = `declined draft ${era}`;
    const declined = await c.call('create_block', { graph: 'careful', pageTitle: 'Drafts', markdown: text });
    expect(textOf(declined)).toMatch(/declined create_block/);
    expect(c.asked[0]).toBe(
      `Let the agent run create_block ('${text}') in graph 'careful'? The person asked to approve every change to this graph. It can be undone from this chat.`,
    );
    expect(count('careful', text)).toBe(0);
    answer = 'accept';
    const kept = `approved draft ${era}`;
    jsonOf(await c.call('create_block', { graph: 'careful', pageTitle: 'Drafts', markdown: kept }));
    expect(c.asked).toHaveLength(2);
    expect(count('careful', kept)).toBe(1);
    const changes = jsonOf<{ changes: Array<{ tool: string; graph: string }> }>(
      await c.call('list_changes', {}),
    );
    expect(changes.changes).toEqual([expect.objectContaining({ tool: 'create_block', graph: 'careful' })]);
    // The graph set back to `destructive`: a small write asks nothing.
    jsonOf(await c.call('create_block', { graph: 'relaxed', pageTitle: 'Drafts', markdown: `free ${era}` }));
    expect(c.asked).toHaveLength(2);
    expect(count('relaxed', `free ${era}`)).toBe(1);
  });

  it('an apps client gets a waiting proposal; Approve writes it once; a client that can ask nobody is refused', async () => {
    const app = await chat(era, { apps: true });
    const text = `proposed draft ${era}`;
    const waiting = await app.call('create_block', { graph: 'careful', pageTitle: 'Drafts', markdown: text });
    expect(textOf(waiting)).toMatch(
      /^Waiting for the person, nothing changed yet: Let the agent run create_block/,
    );
    expect(count('careful', text)).toBe(0);
    expect(textOf(await app.call('approve_change', approveOf(waiting)))).toMatch(
      /^Approved by the person and done/,
    );
    expect(count('careful', text)).toBe(1);
    expect((await app.call('approve_change', approveOf(waiting))).isError).toBe(true);
    expect(count('careful', text)).toBe(1);
    const plain = await chat(era);
    const refused = await plain.call('create_block', {
      graph: 'careful',
      pageTitle: 'Drafts',
      markdown: 'sneaky',
    });
    expect(refused.isError).toBe(true);
    const { error } = JSON.parse(textOf(refused)) as { error: { message: string; setting: string } };
    expect(error).toMatchObject({ setting: 'confirm' });
    expect(error.message).toMatch(/ask the person before every write \("confirm": "every-write"/);
    expect(count('careful', 'sneaky')).toBe(0);
  });
});
