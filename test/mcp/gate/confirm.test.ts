/**
 * The question before a write that takes much away (src-mcp/gate/consent.ts), asked by form
 * elicitation (src-mcp/gate/confirm.ts), through the built bin with
 * real SDK clients that declare form elicitation, in both eras: the v1 client at 2025-11-25 (the
 * server sends `elicitation/create`) and the v2 client at 2026-07-28 (the call answers
 * `input_required`, the client asks and retries). Accept writes; decline and cancel write nothing
 * and say so without an error; a client without elicitation, or `--confirm never`, is never asked.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startEmulator, type Emulator, type PageSpec } from '../../emulator/index.ts';
import { parseCliArgs } from '../../../src-mcp/cli/cli-args.ts';
import { parseConfigText } from '../../../src-mcp/config/config-file.ts';
import { binCommand, binEnv, jsonOf, newToken, textOf, writeToolsConfig } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';
import { uidOf } from './numbered-blocks.ts';

type Answer = 'accept' | 'decline' | 'cancel';
type Era = '2025-11-25' | '2026-07-28';

const TOKEN = newToken();
const blocks = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    string: `${prefix} ${i}`,
    uid: uidOf(prefix, i),
  }));

/** Per era and answer: a page with content linked from another page, 12 blocks, a page 11 blocks link to. */
function pagesFor(tag: string): PageSpec[] {
  return [
    { title: `Doomed ${tag}`, uid: `dm${tag}`.padEnd(9, '0'), children: blocks(`d${tag}`, 3) },
    {
      title: `Links ${tag}`,
      uid: `ln${tag}`.padEnd(9, '0'),
      children: [{ string: `see [[Doomed ${tag}]]` }],
    },
    { title: `Many ${tag}`, uid: `mn${tag}`.padEnd(9, '0'), children: blocks(`m${tag}`, 12) },
    { title: `Famous ${tag}`, uid: `fm${tag}`.padEnd(9, '0') },
    {
      title: `Fans ${tag}`,
      children: Array.from({ length: 11 }, (_, i) => `fan ${i} of [[Famous ${tag}]]`),
    },
    { title: `Empty ${tag}`, uid: `em${tag}`.padEnd(9, '0') },
  ];
}

const TAGS = ['1a', '1d', '1c', '2a', '2d', '2c', 'nv', 'nw', 'nc', 'ne', 'nx'];
// The graph and the config naming it; each test's clients start the bin themselves.
let home: string | undefined;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('roam-stdio-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'g', content: TAGS.flatMap(pagesFor), tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  await writeToolsConfig(home, [{ name: 'g', token: TOKEN, accessLevel: 'full' }]);
});
afterAll(async () => {
  await emulator?.close();
  if (home) await removeDir(home);
});

interface ElicitingClient {
  /** The questions the person saw, in order. */
  asked: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A real SDK client of `era` that declares form elicitation and gives `answer` to every question. */
async function elicitingClient(
  era: Era,
  answer: Answer,
  options: { args?: string[]; declares?: boolean } = {},
): Promise<ElicitingClient> {
  const asked: string[] = [];
  const reply = (message: string) => {
    asked.push(message);
    return answer === 'accept' ? { action: answer, content: {} } : { action: answer };
  };
  const [command, commandArgs] = binCommand(options.args);
  const spawn = {
    command,
    args: commandArgs,
    env: binEnv(home!),
    cwd: home!,
    stderr: 'pipe' as const,
  };
  const info = { name: `confirm-test-${era}`, version: '1.0.0' };
  const capabilities = options.declares === false ? {} : { elicitation: { form: {} } };
  let client: { callTool(p: unknown): Promise<unknown>; close(): Promise<void> };
  if (era === '2025-11-25') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const v1 = new Client(info, { capabilities });
    if (options.declares !== false)
      v1.setRequestHandler(ElicitRequestSchema, async (request) => reply(request.params.message));
    await v1.connect(new StdioClientTransport(spawn));
    client = {
      callTool: (p) => v1.callTool(p as never, undefined, { timeout: 60_000 }),
      close: () => v1.close(),
    };
  } else {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    class OneProcessStdioTransport extends StdioClientTransport {}
    const v2 = new Client(info, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    if (options.declares !== false)
      v2.setRequestHandler('elicitation/create', async (request) => reply(request.params.message));
    await v2.connect(new OneProcessStdioTransport(spawn));
    expect(v2.getProtocolEra()).toBe('modern');
    client = { callTool: (p) => v2.callTool(p as never), close: () => v2.close() };
  }
  const call = async (name: string, toolArgs: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: toolArgs })) as CallToolResult;
  jsonOf(await call('select_graph', { graph: 'g' }));
  return { asked, call, close: () => client.close() };
}

const q = (query: string, arg: string) => emulator.graph('g').run('data.q', [query, arg]);
const exists = (uid: string) => q('[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid) != null;
const titled = (title: string) => q('[:find ?e . :in $ ?t :where [?e :node/title ?t]]', title) != null;
const childCount = (uid: string) =>
  (q('[:find (count ?c) . :in $ ?u :where [?p :block/uid ?u] [?c :block/parents ?p]]', uid) as
    number | null) ?? 0;

describe.each([
  ['2025-11-25', '1'],
  ['2026-07-28', '2'],
] as const)('on %s', (era, n) => {
  describe.each([
    ['accept', 'a'],
    ['decline', 'd'],
    ['cancel', 'c'],
  ] as const)('the person answers %s', (answer, letter) => {
    const tag = `${n}${letter}`;
    const uid = (prefix: string) => `${prefix}${tag}`.padEnd(9, '0');
    let client: ElicitingClient;
    beforeAll(async () => {
      client = await elicitingClient(era, answer);
    });
    afterAll(() => client?.close());

    const done = answer === 'accept';
    const saysNotDone = (result: CallToolResult) => {
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(answer === 'decline' ? /declined/ : /without answering/);
      expect(textOf(result)).toMatch(/Nothing was changed/);
    };

    it('delete_page of a page with content asks with its title, blocks and linking pages', async () => {
      const result = await client.call('delete_page', { uid: uid('dm') });
      expect(client.asked).toEqual([
        `Delete the page 'Doomed ${tag}' and its 3 blocks in graph 'g'? It is linked from 1 block on 1 other page ('Links ${tag}'); those links would lead nowhere. It can be undone from this chat.`,
      ]);
      if (done) expect(jsonOf(result)).toEqual({ deleted: 'page', uid: uid('dm') });
      else saysNotDone(result);
      expect(exists(uid('dm'))).toBe(!done);
    });

    it('delete_blocks of more than 10 blocks in all asks, in the tool’s own result shape', async () => {
      client.asked.length = 0;
      expect(childCount(uid('mn'))).toBe(12);
      const result = await client.call('delete_blocks', { uids: blocks(`m${tag}`, 12).map((b) => b.uid) });
      expect(client.asked).toEqual([
        `Delete 12 blocks on 'Many ${tag}' ('m${tag} 0', 'm${tag} 1', 'm${tag} 2' and 9 more) in graph 'g'? It can be undone from this chat.`,
      ]);
      if (done) expect(result.structuredContent).toMatchObject({ success: true, succeeded: 12 });
      else {
        saysNotDone(result);
        expect(result.structuredContent).toMatchObject({ success: false, succeeded: 0 });
      }
      expect(childCount(uid('mn'))).toBe(done ? 0 : 12);
    });

    it('update_page renaming a page more than 10 blocks link to asks', async () => {
      client.asked.length = 0;
      const result = await client.call('update_page', { uid: uid('fm'), title: `Renamed ${tag}` });
      expect(client.asked).toEqual([
        `Rename the page 'Famous ${tag}' to 'Renamed ${tag}' in graph 'g'? It is linked from 11 blocks on 1 page ('Fans ${tag}'); their links would change with it. It can be undone from this chat.`,
      ]);
      if (!done) saysNotDone(result);
      expect(titled(`Famous ${tag}`)).toBe(!done);
      expect(titled(`Renamed ${tag}`)).toBe(done);
    });

    it('does not ask about an empty page', async () => {
      client.asked.length = 0;
      expect(jsonOf(await client.call('delete_page', { uid: uid('em') }))).toEqual({
        deleted: 'page',
        uid: uid('em'),
      });
      expect(client.asked).toEqual([]);
    });
  });

  it('undo_changes of a whole chat with more than 10 changes asks with its dry run, and a decline undoes nothing', async () => {
    const client = await elicitingClient(era, 'decline');
    try {
      for (let i = 0; i < 11; i++)
        jsonOf(await client.call('create_block', { pageTitle: `Links ${n}a`, markdown: `new ${i}` }));
      const before = emulator.graph('g').counts().blocks;
      const result = await client.call('undo_changes', { all: true });
      expect(client.asked).toEqual([
        `Undo 11 changes this chat made in graph 'g'? That would delete 11 blocks on 'Links ${n}a' ('new 10', 'new 9', 'new 8' and 8 more). It can be undone from this chat.`,
      ]);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/declined/);
      expect(emulator.graph('g').counts().blocks).toBe(before);
      const dry = jsonOf<{ undone: number }>(await client.call('undo_changes', { all: true, dryRun: true }));
      expect(dry.undone).toBe(11);
      expect(client.asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

it.each([
  ['2025-11-25', 'nv'],
  ['2026-07-28', 'nw'],
] as const)('a %s client without elicitation is never asked: the write runs as before', async (era, tag) => {
  const client = await elicitingClient(era, 'decline', { declares: false });
  try {
    const uid = `dm${tag}00000`;
    expect(jsonOf(await client.call('delete_page', { uid }))).toEqual({ deleted: 'page', uid });
    expect(exists(uid)).toBe(false);
  } finally {
    await client.close();
  }
});

it('--confirm never: a client with elicitation is not asked', async () => {
  const client = await elicitingClient('2026-07-28', 'decline', { args: ['--confirm', 'never'] });
  try {
    expect(jsonOf(await client.call('delete_page', { uid: 'dmne00000' }))).toEqual({
      deleted: 'page',
      uid: 'dmne00000',
    });
    expect(client.asked).toEqual([]);
    expect(exists('dmne00000')).toBe(false);
  } finally {
    await client.close();
  }
});

it.each([
  ['never', 'ne', false],
  ['sometimes', 'nx', true],
] as const)('confirm %j in the config file: asked %j', async (policy, tag, asked) => {
  const file = path.join(home!, `confirm-${tag}.json`);
  await writeFile(
    file,
    JSON.stringify({
      version: 1,
      graphs: [{ name: 'g', token: TOKEN, accessLevel: 'full' }],
      confirm: policy,
    }),
    {
      mode: 0o600,
    },
  );
  const client = await elicitingClient('2026-07-28', 'decline', { args: ['--config', file] });
  try {
    await client.call('delete_page', { uid: `dm${tag}00000` });
    expect(client.asked).toHaveLength(asked ? 1 : 0);
    expect(exists(`dm${tag}00000`)).toBe(asked);
  } finally {
    await client.close();
  }
});

it('a config file with a wrong confirm keeps its graphs and says what it ignored', () => {
  const parsed = parseConfigText(JSON.stringify({ graphs: [{ name: 'g' }], confirm: 'always' }), '/f.json');
  expect(parsed.graphs.map((g) => g.name)).toEqual(['g']);
  expect(parsed.errors).toEqual([]);
  expect(parsed).not.toHaveProperty('confirm');
  expect(parsed.warnings).toEqual([
    '/f.json: confirm must be "never" or "destructive", not "always"; it is ignored, so destructive writes ask first (clients with elicitation).',
  ]);
  expect(parseConfigText(JSON.stringify({ graphs: [], confirm: 'never' }), '/f.json').confirm).toBe('never');
});

it('--confirm takes only never or destructive, and says so', () => {
  expect(parseCliArgs(['--confirm', 'never'])).toMatchObject({ command: 'serve', confirm: 'never' });
  expect(parseCliArgs(['--confirm=destructive'])).toMatchObject({ command: 'serve', confirm: 'destructive' });
  expect(parseCliArgs([])).not.toHaveProperty('confirm');
  expect(parseCliArgs(['--confirm', 'always'])).toEqual({
    command: 'error',
    message: "--confirm takes never or destructive, not 'always'.",
  });
  expect(parseCliArgs(['--confirm'])).toEqual({
    command: 'error',
    message: '--confirm takes never or destructive.',
  });
});
