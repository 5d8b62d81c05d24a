/**
 * update_page_markdown under read-edit-own checks ownership right before each destructive write,
 * against what Roam answers then: a person who replies under an agent's block while the call is
 * writing keeps the reply (the delete that would take it is refused, saying what was already
 * done). Through the built bin against the emulator; the person's reply is added by a pass-through
 * in front of the emulator (the bin reaches "Roam" through it), right before the call's first
 * write reaches Roam — no timing involved.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PageSpec } from '../../../emulator/index.ts';
import { errorOf, jsonOf, newToken } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const OWN = newToken();
const RACE: PageSpec = { title: 'Race', uid: 'racepage1', children: [{ string: 'keep', uid: 'keep00001' }] };

let world: StdioWorld | undefined;
let proxy: Server | undefined;
/** Runs once, right before the next request for this action is passed on to Roam. */
let before: { action: string; run: () => void } | undefined;

/** Passes every request on to the emulator, running `before` first when its action comes. */
async function startProxy(target: number): Promise<number> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const action = (() => {
        try {
          return (JSON.parse(body.toString('utf8')) as { action?: string }).action;
        } catch {
          return undefined;
        }
      })();
      if (before && action === before.action) {
        const hook = before;
        before = undefined;
        hook.run();
      }
      void fetch(`http://127.0.0.1:${target}${req.url ?? '/'}`, {
        method: req.method ?? 'POST',
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
          ),
        ),
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      }).then(
        async (answer) => {
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return (proxy.address() as AddressInfo).port;
}

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [{ name: 'own', content: [RACE], tokens: [{ token: OWN, accessLevel: 'full', ai: true }] }],
    },
    config: [{ name: 'own', token: OWN, accessLevel: 'read-edit-own' }],
    // The bin finds "Roam" at the port this file names: the pass-through's.
    prepare: async (home) => {
      const file = path.join(home, '.roam-local-api.json');
      const { port } = JSON.parse(await readFile(file, 'utf8')) as { port: number };
      await writeFile(file, JSON.stringify({ port: await startProxy(port) }));
    },
    orient: ['own'],
  });
}, 60_000);

afterAll(async () => {
  await world?.close();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

const childrenOf = (uid: string) =>
  (
    world!.emulator
      .graph('own')
      .run('data.q', [
        '[:find ?s ?u :in $ ?p :where [?b :block/uid ?p] [?b :block/children ?c] [?c :block/string ?s] [?c :block/uid ?u]]',
        uid,
      ]) as Array<[string, string]>
  ).map(([text, uid]) => ({ text, uid }));

it("a person's reply added under an agent's block while the call writes is not deleted with it", async () => {
  const { mcp, emulator } = world!;
  jsonOf(await mcp.call('update_page_markdown', { title: 'Race', markdown: '- keep\n- agent A\n- agent B' }));
  const blocks = childrenOf('racepage1');
  const a = blocks.find((b) => b.text === 'agent A')!.uid;
  const b = blocks.find((b) => b.text === 'agent B')!.uid;
  // The rewrite edits A, then deletes B; right before its first write, the person replies under B.
  before = {
    action: 'data.block.updateBlocks',
    run: () =>
      emulator
        .graph('own')
        .run('data.block.create', [
          { location: { 'parent-uid': b, order: 'last' }, block: { string: 'my reply', uid: 'reply0001' } },
        ]),
  };
  const refused = errorOf(
    await mcp.call('update_page_markdown', {
      title: 'Race',
      markdown: `- keep <roam uid="keep00001"/>\n- agent A, revised <roam uid="${a}"/>`,
    }),
  );
  expect(before).toBeUndefined(); // the person did reply mid-call
  expect(refused.code).toBe('ACCESS_LEVEL');
  expect(refused.message).toContain(`'${b}' (1 block(s) under it were not created by an agent)`);
  expect(refused.message).toMatch(/1 of 2 writes/);
  expect(refused.message).toContain('undo_changes');
  expect(childrenOf(b)).toEqual([{ text: 'my reply', uid: 'reply0001' }]);
  expect(childrenOf('racepage1').map((x) => x.text)).toEqual(
    expect.arrayContaining(['keep', 'agent A, revised', 'agent B']),
  );
});
