// The tray shows what an agent's write would take away and the person answers there (docs/tray.md,
// "Approvals"), with nothing faked: the tray core runs the real `roam-mcp serve --http` child
// against the emulator; real SDK clients over HTTP, one that renders MCP Apps and one that does
// not. A write the gate holds appears in the core's pending proposals (in a person's words: no
// uid, no code, no hidden text); Approve in the tray runs it as the agent's journaled, undoable
// change; Keep leaves the graph as it was; an answer in the chat closes it in the tray; whichever
// answer comes first wins, and a late, replayed, forged or malformed answer is refused. A chat
// under a key not made for a named client is answered only here, though its host renders apps. A
// graph set to "every change" in Edit holds even a one-block create for the tray.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { KeyStore, readUrlFile } from '../../../src-mcp/data-folder/index.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import {
  askedPages,
  blockExists,
  deletePage,
  fileStored,
  pageUid,
  proposalId,
  textOf,
  uidOf,
  uploadPdf,
} from '../../harness/asked-graph.ts';
import { APPS_CAPABILITY } from '../../harness/consent-client.ts';
import { startCore, tempDirs, waitFor } from '../helpers.ts';

const SECRET = 'HIDDEN-7731';
const PAGES = ['Approved', 'Kept', 'Chat', 'Both', 'Late', 'Elicited', 'Files', 'Generic'];
const pages = askedPages(PAGES, SECRET, [`long ${'x'.repeat(5000)}`]);

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let events: Array<{ event: string; payload: unknown }>;
let apps: Client;
let plain: Client;
let key: string;
let url: string;

async function connect(url: string, key: string, capabilities = {}): Promise<Client> {
  const client = new Client({ name: 'tray-approvals', version: '0.0.0' }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

beforeAll(async () => {
  dirs = await tempDirs();
  const dataDir = path.join(dirs.home, 'data');
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'asked', content: pages }] });
  emulator.autoDecide({ kind: 'approve' });
  ({ core, events } = startCore(dirs, { httpHub: { port: 0 }, dataDir, env: {} }));
  await core.handlers['graphs:add']({ name: 'asked', nickname: 'Asked', accessLevel: 'full' });
  ({ url } = await waitFor(() => readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: dataDir } })));
  const { mkdir, readFile } = await import('node:fs/promises');
  await mkdir(path.join(dirs.home, '.cursor'), { recursive: true });
  // With the files toolset, so a plain client can ask to delete a file.
  await core.handlers['clients:install']({ id: 'cursor', toolsets: ['core', 'navigation', 'files'] });
  const entry = JSON.parse(await readFile(path.join(dirs.home, '.cursor', 'mcp.json'), 'utf8')).mcpServers[
    'roam-companion'
  ];
  key = /^Bearer (\S+)$/.exec(entry.headers.Authorization)![1]!;
  apps = await connect(url, key, APPS_CAPABILITY);
  plain = await connect(url, key);
  for (const client of [apps, plain])
    await client.callTool({ name: 'select_graph', arguments: { graph: 'Asked' } });
}, 60_000);

afterAll(async () => {
  await apps?.close().catch(() => {});
  await plain?.close().catch(() => {});
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

const exists = (uid: string) => blockExists(emulator.graph('asked'), uid);
const shown = async (id: string) =>
  (await core.handlers['proposals:list'](undefined)).find((p: ProposalView) => p.id === id);
const gone = async (id: string) => ((await shown(id)) ? undefined : true);

it('a write held for a client that cannot ask waits in the tray, in the person’s words; Approve there does it as the agent’s undoable change', async () => {
  const result = await deletePage(plain, 'Approved');
  expect(textOf(result)).toMatch(
    /Waiting for the person, nothing changed yet: .*They answer in Roam Companion/s,
  );
  expect(result._meta?.['roam-companion/approve']).toBeUndefined();
  const id = proposalId(result);
  const view = await waitFor(() => shown(id));
  expect(view.question).toContain('Approved page');
  expect(view.graph).toBe('Asked');
  expect(view.taken.pages.map((p) => p.title)).toEqual(['Approved page']);
  expect(view.taken.blocks.map((b) => b.text)).toContain('Approved line 0');
  expect(view.taken.hidden).toBeGreaterThan(0);
  // A block's first lines, not its whole text.
  const long = view.taken.blocks.find((b) => b.text.startsWith('Approved long'))!;
  expect(long.text).toMatch(/^Approved long x{286}\.\.\. \[truncated\]$/);
  // Never a uid, never hidden text, anywhere the renderer is told.
  for (const told of [JSON.stringify(view), JSON.stringify(events)]) {
    expect(told).not.toContain(pageUid('Approved'));
    expect(told).not.toContain(uidOf('app', 1));
    expect(told).not.toContain(SECRET);
  }
  expect(exists(pageUid('Approved'))).toBe(true);

  const answered = await core.handlers['proposals:answer']({ id, answer: 'approve' });
  expect(answered).toEqual({
    done: true,
    outcome: expect.stringMatching(/^Approved by the person and done/),
  });
  expect(exists(pageUid('Approved'))).toBe(false);
  await waitFor(() => gone(id));
  // The agent learns it, and it is the agent's journaled change, which the person can undo.
  expect(textOf(await plain.callTool({ name: 'list_changes', arguments: {} }))).toMatch(/approved/);
  const feed = await waitFor(async () => {
    const f = await core.handlers['activity:list'](undefined);
    return f.chats.some((c) => c.changes.some((ch) => JSON.stringify(ch).includes('Approved page')))
      ? f
      : undefined;
  });
  const chat = feed.chats.find((c) => JSON.stringify(c).includes('Approved page'))!;
  const undone = await core.handlers['activity:undo']({ chat: chat.id, dryRun: false });
  expect(undone.undone).toBeGreaterThan(0);
  expect(exists(pageUid('Approved'))).toBe(true);

  // A replay of the same answer is refused, and changes nothing.
  await expect(core.handlers['proposals:answer']({ id, answer: 'approve' })).rejects.toMatchObject({
    code: 'NOT_FOUND',
    message: expect.stringMatching(/no longer waits for an answer/),
  });
  expect(exists(pageUid('Approved'))).toBe(true);
});

it('a file delete held for a plain client waits in the tray named by its file name and the blocks that show it, never its address; Approve there deletes it once', async () => {
  // The person uploaded a report in Roam and shows it on a page, once in a block hidden from AI.
  const graph = emulator.graph('asked');
  const { fileUrl, address, query, name } = uploadPdf(graph, 'report');
  expect(query).toMatch(/token=/);
  const shows = [
    { uid: 'filesblk1', string: `The report: ![](${fileUrl})` },
    { uid: 'filesblk2', string: `${SECRET} ![](${fileUrl}) #.rm-hide` },
  ];
  for (const block of shows)
    graph.run('data.block.create', [{ location: { 'parent-uid': pageUid('Files'), order: 'last' }, block }]);
  const stored = () => fileStored(graph, fileUrl);

  const result = (await plain.callTool({
    name: 'file_delete',
    arguments: { url: fileUrl },
  })) as CallToolResult;
  expect(textOf(result)).toMatch(
    /Waiting for the person, nothing changed yet: .*They answer in Roam Companion/s,
  );
  const id = proposalId(result);
  const view = await waitFor(() => shown(id));
  expect(view.question).toContain(`'${name}'`);
  expect(view.taken.files).toEqual([{ name, shownIn: { blocks: 2, pages: ['Files page'] } }]);
  // No part of the address, its token, a block's uid or the hidden text, anywhere the renderer is told.
  for (const told of [JSON.stringify(view), JSON.stringify(events)])
    for (const leak of [
      'token=',
      query,
      'https://',
      'firebasestorage',
      'appspot',
      'imgs%2F',
      address,
      pageUid('Files'),
      'filesblk',
      SECRET,
    ])
      expect(told).not.toContain(leak);
  expect(stored()).toBe(true);

  emulator.clearRequests();
  const deletes = () => emulator.requests.filter((r) => r.action === 'file.delete').length;
  expect(await core.handlers['proposals:answer']({ id, answer: 'approve' })).toEqual({
    done: true,
    outcome: expect.stringMatching(/^Approved by the person and done/),
  });
  expect(stored()).toBe(false);
  expect(deletes()).toBe(1);
  await waitFor(() => gone(id));
  await expect(core.handlers['proposals:answer']({ id, answer: 'approve' })).rejects.toMatchObject({
    code: 'NOT_FOUND',
  });
  expect(deletes()).toBe(1);
});

it('Keep in the tray leaves the graph as it was; the agent reads that the person kept it', async () => {
  const id = proposalId(await deletePage(plain, 'Kept'));
  await waitFor(() => shown(id));
  const answered = await core.handlers['proposals:answer']({ id, answer: 'keep' });
  expect(answered).toEqual({ done: true, outcome: expect.stringMatching(/^Kept/) });
  expect(exists(pageUid('Kept'))).toBe(true);
  await expect(core.handlers['proposals:answer']({ id, answer: 'approve' })).rejects.toMatchObject({
    code: 'NOT_FOUND',
  });
  expect(exists(pageUid('Kept'))).toBe(true);
  expect(textOf(await plain.callTool({ name: 'list_changes', arguments: {} }))).toMatch(/Kept: the person/);
});

it('answered in the chat first, the proposal leaves the tray and the tray’s late answer is refused', async () => {
  const result = await deletePage(apps, 'Chat');
  expect(textOf(result)).toMatch(/in the approval shown in this chat or in Roam Companion/);
  const id = proposalId(result);
  await waitFor(() => shown(id));
  const approve = result._meta?.['roam-companion/approve'] as {
    tool: string;
    arguments: Record<string, string>;
  };
  // The one-time code never reached the tray's side.
  expect(JSON.stringify(events)).not.toContain(approve.arguments.code);
  expect((await apps.callTool({ name: approve.tool, arguments: approve.arguments })).isError ?? false).toBe(
    false,
  );
  expect(exists(pageUid('Chat'))).toBe(false);
  await waitFor(() => gone(id));
  await expect(core.handlers['proposals:answer']({ id, answer: 'keep' })).rejects.toMatchObject({
    code: 'NOT_FOUND',
  });
  expect(exists(pageUid('Chat'))).toBe(false);
});

it('under a key not made for a named client, a host that renders apps gets no approval: the proposal waits only in the tray', async () => {
  // A key made by hand (roam-mcp key create), as a script would hold it: its approvals do not count.
  const { key: generic } = await new KeyStore({ dir: path.join(dirs.home, 'data') }).create('my-script');
  const script = await connect(url, generic, APPS_CAPABILITY);
  try {
    await script.callTool({ name: 'select_graph', arguments: { graph: 'Asked' } });
    const result = await deletePage(script, 'Generic');
    expect(textOf(result)).toMatch(
      /Waiting for the person, nothing changed yet: .*They answer in Roam Companion/s,
    );
    for (const meta of ['roam-companion/approve', 'roam-companion/keep', 'roam-companion/proposal'])
      expect(result._meta?.[meta]).toBeUndefined();
    const id = proposalId(result);
    await waitFor(() => shown(id));
    expect(exists(pageUid('Generic'))).toBe(true);
    const answered = await core.handlers['proposals:answer']({ id, answer: 'approve' });
    expect(answered).toEqual({
      done: true,
      outcome: expect.stringMatching(/^Approved by the person and done/),
    });
    expect(exists(pageUid('Generic'))).toBe(false);
  } finally {
    await script.close().catch(() => {});
  }
});

it('the chat and the tray answering at once: exactly one answer is applied, the other is told it came late', async () => {
  const result = await deletePage(apps, 'Both');
  const id = proposalId(result);
  await waitFor(() => shown(id));
  const keep = result._meta?.['roam-companion/keep'] as { tool: string; arguments: Record<string, string> };
  const [inChat, inTray] = await Promise.all([
    apps.callTool({ name: keep.tool, arguments: keep.arguments }) as Promise<CallToolResult>,
    core.handlers['proposals:answer']({ id, answer: 'approve' }).catch((error: { code: string }) => error),
  ]);
  const chatWon = !inChat.isError;
  const trayWon = 'done' in inTray && inTray.done;
  expect([chatWon, trayWon].filter(Boolean)).toHaveLength(1);
  // Keep (the chat) leaves the page; Approve (the tray) removes it: the graph shows who won.
  expect(exists(pageUid('Both'))).toBe(chatWon);
  await waitFor(() => gone(id));
});

it('forged and malformed answers through the IPC handler are refused and change nothing', async () => {
  const id = proposalId(await deletePage(plain, 'Late'));
  await waitFor(() => shown(id));
  await expect(
    core.handlers['proposals:answer']({ id: 'p-madeup0000', answer: 'approve' }),
  ).rejects.toMatchObject({
    code: 'NOT_FOUND',
  });
  for (const bad of [
    { id, answer: 'delete' },
    { id: 'x'.repeat(41), answer: 'approve' },
    { id, answer: 'approve', code: 'anything' },
    { id: '', answer: 'keep' },
  ])
    await expect(core.handlers['proposals:answer'](bad as never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  expect(exists(pageUid('Late'))).toBe(true);
  // The real proposal still waits and still answers.
  expect(await shown(id)).toBeDefined();
  expect((await core.handlers['proposals:answer']({ id, answer: 'keep' })).done).toBe(true);
  expect(exists(pageUid('Late'))).toBe(true);
});

it('a client that can ask is asked in the chat as before: nothing waits in the tray', async () => {
  const asked: string[] = [];
  const eliciting = new Client(
    { name: 'tray-approvals-eliciting', version: '0.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  eliciting.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'decline' };
  });
  await eliciting.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  try {
    await eliciting.callTool({ name: 'select_graph', arguments: { graph: 'Asked' } });
    const before = events.length;
    const result = await deletePage(eliciting, 'Elicited');
    expect(asked).toEqual([expect.stringContaining('Elicited page')]);
    expect(textOf(result)).toMatch(/^Not done: the person declined delete_page/);
    // (An empty list may still arrive from an earlier test's last message: nothing is shown.)
    const shownSince = events
      .slice(before)
      .filter((e) => e.event === 'proposals:changed' && (e.payload as unknown[]).length > 0);
    expect(shownSince).toEqual([]);
    expect(exists(pageUid('Elicited'))).toBe(true);
  } finally {
    await eliciting.close().catch(() => {});
  }
});

it('a graph set to "every change" in Edit: a one-block create waits in the tray; Approve writes it once, as the agent’s change', async () => {
  await core.handlers['graphs:update']({ id: 'hosted:asked', confirm: 'every-write' });
  try {
    const count = (text: string) =>
      emulator
        .graph('asked')
        .run('data.q', ['[:find (count ?b) . :in $ ?s :where [?b :block/string ?s]]', text]) ?? 0;
    // The HTTP server's child applies the store's change once its watcher fires: until then a
    // small create goes ahead, so each try writes a text of its own.
    let tries = 0;
    let held: CallToolResult | undefined;
    let text = '';
    await waitFor(async () => {
      text = `every change draft ${++tries}`;
      const result = (await plain.callTool({
        name: 'create_block',
        arguments: { pageTitle: 'Kept page', markdown: text },
      })) as CallToolResult;
      if (/Waiting for the person/.test(textOf(result))) held = result;
      return held;
    });
    expect(count(text)).toBe(0);
    const id = proposalId(held!);
    const view = await waitFor(() => shown(id));
    expect(view.tool).toBe('create_block');
    expect(view.question).toContain(text);
    expect(view.taken.blocks).toEqual([]);
    expect(view.taken.pages).toEqual([]);
    const answered = await core.handlers['proposals:answer']({ id, answer: 'approve' });
    expect(answered).toEqual({
      done: true,
      outcome: expect.stringMatching(/^Approved by the person and done/),
    });
    expect(count(text)).toBe(1);
    const listed = JSON.parse(textOf(await plain.callTool({ name: 'list_changes', arguments: {} }))) as {
      changes: Array<{ tool: string }>;
    };
    expect(listed.changes.map((c) => c.tool)).toContain('create_block');
  } finally {
    await core.handlers['graphs:update']({ id: 'hosted:asked', confirm: 'destructive' });
  }
});
