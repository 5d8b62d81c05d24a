/**
 * A remote chat's write that needs the person's yes is never "go ahead because nobody can ask"
 * (issue 50), and an approval in the chat counts only for a client a client ID metadata document
 * vouches for: a registered client's host may render apps, yet its chat is never sent a
 * proposal's one-time values. The built bin behind caddy's TLS, signed in at the machine
 * (`roam-mcp remote approve`), the v2 SDK client declaring MCP Apps, on 2026-07-28.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_CAPABILITY } from '../../harness/consent-client.ts';
import { jsonOf, textOf } from '../../harness/mcp-bin.ts';
import {
  authorizeUrl,
  get,
  pageFields,
  pageUid,
  pkce,
  registerClient,
  remoteChat,
  signIn,
} from './oauth-steps.ts';
import { CADDY_MISSING, hasCaddy, REDIRECT, startRemoteWorld, type RemoteWorld } from './remote-world.ts';

let world: RemoteWorld;
beforeAll(async () => {
  if (!hasCaddy) return;
  world = await startRemoteWorld({ admitLoopback: true });
}, 60_000);
afterAll(() => world?.close());

const uidOf = (title: string) => pageUid(world, 'work', title);

/** A page of three blocks made by the chat itself (an append asks nothing), by its uid. */
async function pageToDelete(chat: Awaited<ReturnType<typeof remoteChat>>, title: string) {
  const made = await chat.call('create_page', { graph: 'Work', title, markdown: '- one\n- two\n- three' });
  expect(made.isError ?? false).toBe(false);
  const uid = uidOf(title);
  expect(uid).toBeTruthy();
  return uid!;
}

describe.skipIf(!hasCaddy)(hasCaddy ? 'consent for remote chats' : CADDY_MISSING, () => {
  it('a registered client: deleting a page with content is refused, with no proposal values sent', async () => {
    const base = world.publicUrl;
    const signed = await signIn(world, world.fetch, base);
    const chat = await remoteChat(world, signed.tokens.access_token!, {
      name: 'remote-consent-test',
      capabilities: APPS_CAPABILITY,
    });
    try {
      jsonOf(await chat.call('select_graph', { graph: 'Work' }));
      const uid = await pageToDelete(chat, 'Remote unverified target');
      const refused = await chat.call('delete_page', { graph: 'Work', uid });
      expect(refused.isError).toBe(true);
      expect(JSON.parse(textOf(refused))).toMatchObject({
        error: {
          code: 'ACCESS_LEVEL',
          message: expect.stringMatching(/Nobody can be asked from this connection/),
        },
      });
      for (const key of ['roam-companion/approve', 'roam-companion/proposal'])
        expect(refused._meta?.[key]).toBeUndefined();
      expect(uidOf('Remote unverified target')).toBe(uid);
    } finally {
      await chat.close();
    }
  });

  it('a client its metadata document vouches for: the same delete waits for Approve in the chat', async () => {
    const base = world.publicUrl;
    const signed = await signIn(world, world.fetch, base, { clientId: `${world.documents}/client.json` });
    const chat = await remoteChat(world, signed.tokens.access_token!, {
      name: 'remote-consent-test',
      capabilities: APPS_CAPABILITY,
    });
    try {
      jsonOf(await chat.call('select_graph', { graph: 'Work' }));
      const uid = await pageToDelete(chat, 'Remote verified target');
      const held = await chat.call('delete_page', { graph: 'Work', uid });
      expect(held.isError ?? false).toBe(false);
      expect(textOf(held)).toMatch(/^Waiting for the person, nothing changed yet/);
      const answer = (held._meta?.['roam-companion/approve'] as { arguments: Record<string, string> })
        .arguments;
      expect(uidOf('Remote verified target')).toBe(uid);
      expect(textOf(await chat.call('approve_change', answer))).toMatch(/^Approved by the person and done/);
      expect(uidOf('Remote verified target')).toBeNull();
    } finally {
      await chat.close();
    }
  });

  it('a small change still asks nothing from afar', async () => {
    const signed = await signIn(world, world.fetch, world.publicUrl);
    const chat = await remoteChat(world, signed.tokens.access_token!, {
      name: 'remote-consent-test',
      capabilities: APPS_CAPABILITY,
    });
    try {
      jsonOf(await chat.call('select_graph', { graph: 'Work' }));
      const uid = await pageToDelete(chat, 'Remote small change');
      const block = (
        world.emulator
          .graph('work')
          .run('data.q', [
            '[:find [?u ...] :in $ ?p :where [?pg :block/uid ?p] [?b :block/page ?pg] [?b :block/uid ?u]]',
            uid,
          ]) as string[]
      )[0]!;
      const deleted = await chat.call('delete_block', { graph: 'Work', uid: block });
      expect(deleted.isError ?? false).toBe(false);
    } finally {
      await chat.close();
    }
  });

  it('a registered name reaches the page and the machine as one plain line: no direction tricks, no markup', async () => {
    const hostile = `Claude\u202e\u200bdellac <b>official</b>\nsecond line${'x'.repeat(200)}`;
    const clientId = await registerClient(world.fetch, world.publicUrl, hostile);
    const { challenge } = pkce();
    const page = await get(
      world.fetch,
      authorizeUrl(world.publicUrl, {
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
      }),
    );
    const html = await page.text();
    const { request } = pageFields(html);
    const listed = JSON.parse((await world.bin(['remote', 'requests', '--json'])).stdout) as {
      requests: Array<{ id: string; clientName: string }>;
    };
    const name = listed.requests.find((r) => r.id === request)!.clientName;
    expect(name).not.toMatch(/[\u202e\u200b\n]/);
    expect([...name].length).toBeLessThanOrEqual(80);
    expect(name.startsWith('Claude dellac <b>official</b> second line')).toBe(true);
    expect(html).not.toMatch(/[\u202e\u200b]/);
    expect(html).not.toContain('<b>official</b>');
    expect(html).toContain('<bdi>Claude dellac &lt;b&gt;official&lt;/b&gt; second line');
    expect((await world.bin(['remote', 'deny', request])).code).toBe(0);
  });
});
