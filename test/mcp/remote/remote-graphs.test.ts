/**
 * A remote connection reaches only the graphs the person chose at the machine (issue 50,
 * `roam-mcp remote approve ID --graphs Work`): to its chats the other graph is not there, named
 * by nickname or name it answers as a graph that does not exist, and nothing the chat does lands
 * in it. A connection approved without --graphs reaches both (the control). The built bin behind
 * caddy's TLS, the v2 SDK client on 2026-07-28, the emulator serving Work and Home.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorOf, jsonOf } from '../../harness/mcp-bin.ts';
import { pageFields, pageUid, remoteChat, signIn } from './oauth-steps.ts';
import { CADDY_MISSING, hasCaddy, startRemoteWorld, type RemoteWorld } from './remote-world.ts';

let world: RemoteWorld;
beforeAll(async () => {
  if (!hasCaddy) return;
  world = await startRemoteWorld({ admitLoopback: true, home: true });
}, 60_000);
afterAll(() => world?.close());

const pageIn = (graph: string, title: string) => pageUid(world, graph, title);

const nicknames = (listed: CallToolResult) =>
  jsonOf<{ items: Array<{ nickname: string }> }>(listed).items.map((g) => g.nickname);

/** The error with the graph's name taken out: the answer for Home must be the one for a made-up graph. */
const shape = (result: CallToolResult, named: string) =>
  JSON.parse(JSON.stringify(errorOf(result)).replaceAll(named, '<graph>')) as unknown;

describe.skipIf(!hasCaddy)(hasCaddy ? 'remote connections and their graphs' : CADDY_MISSING, () => {
  it('an unknown graph at the machine is refused, naming the graphs, and the sign-in still waits', async () => {
    const register = await world.fetch(`${world.publicUrl}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Typo', redirect_uris: ['http://127.0.0.1:9/callback'] }),
    });
    const { client_id: clientId } = (await register.json()) as { client_id: string };
    const url = new URL(`${world.publicUrl}/authorize`);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:9/callback',
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const page = await world.fetch(url.href, { redirect: 'manual' });
    const { request } = pageFields(await page.text());
    const typo = await world.bin(['remote', 'approve', request, '--graphs', 'Wrok']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("No configured graph is called 'Wrok'. Name one or more of: Work, Home");
    const none = await world.bin(['remote', 'approve', request, '--graphs', ' , ']);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('--graphs names no graph')]);
    const waiting = JSON.parse((await world.bin(['remote', 'requests', '--json'])).stdout) as {
      requests: Array<{ id: string; status: string }>;
    };
    expect(waiting.requests.find((r) => r.id === request)?.status).toBe('waiting');
    expect((await world.bin(['remote', 'deny', request])).code).toBe(0);
  });

  it('approved for Work: Home is not listed, not reachable by nickname or name, and stays untouched', async () => {
    const signed = await signIn(world, world.fetch, world.publicUrl, { approve: ['--graphs', 'Work'] });
    expect(signed.approved).toContain('reaches only Work.');
    const listed = JSON.parse((await world.bin(['remote', 'connections', '--json'])).stdout) as {
      connections: Array<{ clientName: string; graphs?: string[] }>;
    };
    expect(listed.connections.map((c) => c.graphs)).toContainEqual(['hosted:work']);
    const text = (await world.bin(['remote', 'connections'])).stdout;
    expect(text).toContain('graphs Work ');

    const chat = await remoteChat(world, signed.tokens.access_token!, { name: 'remote-graphs-test' });
    try {
      expect(nicknames(await chat.call('list_graphs', {}))).toEqual(['Work']);
      const unknown = shape(await chat.call('select_graph', { graph: 'Elsewhere' }), 'Elsewhere');
      expect(errorOf(await chat.call('select_graph', { graph: 'Elsewhere' })).code).toBe('GRAPH_NOT_FOUND');
      for (const named of ['Home', 'home'])
        expect(shape(await chat.call('select_graph', { graph: named }), named)).toEqual(unknown);
      const write = await chat.call('create_page', { graph: 'Home', title: 'Reached Home', markdown: '- x' });
      expect(shape(write, 'Home')).toEqual(
        shape(
          await chat.call('create_page', { graph: 'Elsewhere', title: 'Reached Home', markdown: '- x' }),
          'Elsewhere',
        ),
      );
      expect(pageIn('home', 'Reached Home')).toBeNull();
      // Resources and completions know only Work; reading Home's answers as for a made-up graph.
      const uris = (await chat.client.listResources()).resources.map((r) => r.uri);
      expect(uris.some((u) => u.startsWith('roam://Work/'))).toBe(true);
      expect(uris.filter((u) => /home/i.test(u))).toEqual([]);
      const completed = await chat.client.complete({
        ref: { type: 'ref/resource', uri: 'roam://{graph}/page/{title}' },
        argument: { name: 'graph', value: '' },
      });
      expect(completed.completion.values).toEqual(['Work']);
      const refusal = async (graph: string) =>
        chat.client.readResource({ uri: `roam://${graph}/page/Welcome` }).then(
          () => 'read',
          (error: Error) => error.message.replaceAll(graph, '<graph>'),
        );
      expect(await refusal('Home')).toBe(await refusal('Elsewhere'));
      expect(await refusal('Home')).toContain("No configured graph '<graph>'");
      expect(errorOf(await chat.call('setup_new_graph', {})).message).toContain(
        'reaches only the graphs the person chose',
      );

      // Its one graph is its selection without asking; its changes are Work's alone.
      expect((await chat.call('select_graph', { graph: 'Work' })).isError ?? false).toBe(false);
      const made = await chat.call('create_page', { title: 'Remote in Work', markdown: '- one' });
      expect(made.isError ? errorOf(made) : 'made').toBe('made');
      expect(pageIn('work', 'Remote in Work')).toBeTruthy();
      expect(pageIn('home', 'Remote in Work')).toBeNull();
      const changes = jsonOf<{ changes: Array<{ graph: string }> }>(await chat.call('list_changes', {}));
      expect(changes.changes.map((c) => c.graph)).toEqual(['Work']);
      // Deleting a page is never done unasked from afar (remote-consent.test.ts): the dry run says what.
      const undo = await chat.call('undo_changes', { all: true, dryRun: true });
      expect(jsonOf<{ changes: unknown[] }>(undo).changes).toHaveLength(1);
    } finally {
      await chat.close();
    }
  });

  it('approved without --graphs: both graphs, as before', async () => {
    const signed = await signIn(world, world.fetch, world.publicUrl);
    const chat = await remoteChat(world, signed.tokens.access_token!, { name: 'remote-graphs-test' });
    try {
      expect(nicknames(await chat.call('list_graphs', {})).sort()).toEqual(['Home', 'Work']);
      expect(errorOf(await chat.call('select_graph', { graph: 'Elsewhere' })).code).toBe('GRAPH_NOT_FOUND');
      expect((await chat.call('select_graph', { graph: 'Home' })).isError ?? false).toBe(false);
    } finally {
      await chat.close();
    }
  });
});
