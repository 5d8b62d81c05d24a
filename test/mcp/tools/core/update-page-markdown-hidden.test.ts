/**
 * update_page_markdown asks Roam which of the blocks it is about to write are hidden from AI right
 * before its first write, not from its read of the page: a person who tags a block `#.rm-private`
 * after the page was read keeps the block as they wrote it, and the rewrite is refused whole.
 * Through the built bin against the emulator; the tag is added by a pass-through in front of the
 * emulator right after Roam answers the call's read of the page — no timing involved.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PageSpec } from '../../../emulator/index.ts';
import { errorOf, newToken } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const TOKEN = newToken();
const PAGE: PageSpec = {
  title: 'Plans',
  uid: 'planspage',
  children: [
    { string: 'first plan', uid: 'plan00001' },
    { string: 'second plan', uid: 'plan00002' },
  ],
};

let world: StdioWorld | undefined;
let proxy: Server | undefined;
/** Runs once, right after Roam answers the next request whose body contains `marker`. */
let after: { marker: string; run: () => void } | undefined;

async function startProxy(target: number): Promise<number> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
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
          const answered = Buffer.from(await answer.arrayBuffer());
          if (after && body.toString('utf8').includes(after.marker)) {
            const hook = after;
            after = undefined;
            hook.run();
          }
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(answered);
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
    emulator: { graphs: [{ name: 'g', content: [PAGE], tokens: [{ token: TOKEN, accessLevel: 'full' }] }] },
    config: [{ name: 'g', token: TOKEN, accessLevel: 'full' }],
    prepare: async (home) => {
      const file = path.join(home, '.roam-local-api.json');
      const { port } = JSON.parse(await readFile(file, 'utf8')) as { port: number };
      await writeFile(file, JSON.stringify({ port: await startProxy(port) }));
    },
    orient: ['g'],
  });
}, 60_000);

afterAll(async () => {
  await world?.close();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

const textOf = (uid: string) =>
  world!.emulator
    .graph('g')
    .run('data.q', ['[:find ?s . :in $ ?u :where [?b :block/uid ?u] [?b :block/string ?s]]', uid]);

it('refuses a rewrite whose block was made private after the page was read', async () => {
  const { mcp, emulator } = world!;
  // The page is read with one pull of its children; right after Roam answers it, the person tags.
  after = {
    marker: ':block/children :limit nil',
    run: () =>
      emulator
        .graph('g')
        .run('data.block.update', [{ block: { uid: 'plan00002', string: 'second plan 1357 #.rm-private' } }]),
  };

  const refused = errorOf(
    await mcp.call('update_page_markdown', {
      title: 'Plans',
      markdown:
        '- first plan, revised <roam uid="plan00001"/>\n- second plan, revised <roam uid="plan00002"/>',
    }),
  );

  expect(after).toBeUndefined(); // the person did tag it mid-call
  expect(refused.code).toBe('HIDDEN_CONTENT');
  expect(refused.message).toContain('plan00002');
  expect(refused.message).not.toContain('1357');
  expect(textOf('plan00002')).toBe('second plan 1357 #.rm-private');
  expect(textOf('plan00001')).toBe('first plan');
});
