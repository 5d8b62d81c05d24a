// The `--mcp` launcher shows its child's waiting proposals and answers them (docs/tray.md,
// "Approvals"), with nothing faked: the core launcher runs the real roam-mcp child (dist bin)
// against the emulator, an SDK client speaks MCP on the child's stdio, one that renders MCP Apps
// and one that does not. A write the gate holds shows up in the launcher's list in a person's
// words; answered there it is the agent's journaled change; answered in the chat first, or at the
// same time, exactly one answer wins; forged, replayed and late answers are refused; the list
// empties when the child goes.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFileKeySecretBox } from '../../../../src-main/core/store/file-key-secret-box.ts';
import {
  forkSpawner,
  runMcpLauncher,
  type McpLauncher,
} from '../../../../src-main/core/clients/mcp-launcher.ts';
import type { ProposalView } from '../../../../src-shared/ipc-contract.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { ChildStdioTransport } from '../../../harness/child-transport.ts';
import {
  askedPages,
  blockExists,
  deletePage,
  pageUid,
  proposalId,
  textOf,
  uidOf,
} from '../../../harness/asked-graph.ts';
import { APPS_CAPABILITY } from '../../../harness/consent-client.ts';
import { binEnv } from '../../../harness/mcp-bin.ts';
import { mcpBundle, startCore, tempDirs, waitFor } from '../../helpers.ts';

const SECRET = 'HIDDEN-5519';
const PAGES = ['Approved', 'Forged', 'Chat', 'Both', 'Gone'];
const pages = askedPages(PAGES, SECRET);

interface Launched {
  launcher: McpLauncher;
  child: ChildProcess;
  client: Client;
  /** Every list the launcher published, as its shell would have been told. */
  published: ProposalView[][];
}

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let plain: Launched;
let apps: Launched;

async function launch(name: string, capabilities = {}): Promise<Launched> {
  let child: ChildProcess | undefined;
  const spawn = forkSpawner({ stdio: 'pipe' });
  const launcher = await runMcpLauncher({
    storeDir: dirs.storeDir,
    secretBox: createFileKeySecretBox(dirs.storeDir),
    mcpServerPath: mcpBundle,
    spawn: (script, env, args) => (child = spawn(script, env, args) as ChildProcess),
    env: binEnv(dirs.home, { ROAM_COMPANION_DATA_DIR: path.join(dirs.home, 'data') }),
    log: () => {},
    countAsSession: false,
    showsProposals: true,
  });
  const published: ProposalView[][] = [];
  launcher.proposals.on('proposals:changed', (waiting) => published.push(waiting));
  const client = new Client({ name, version: '0.0.0' }, { capabilities });
  await client.connect(new ChildStdioTransport(child!));
  await waitFor(async () => {
    const selected = await client.callTool({ name: 'select_graph', arguments: { graph: 'Asked' } });
    return selected.isError ? undefined : true;
  });
  return { launcher, child: child!, client, published };
}

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'asked', content: pages }] });
  emulator.autoDecide({ kind: 'approve' });
  const { core } = startCore(dirs);
  await core.handlers['graphs:add']({ name: 'asked', nickname: 'Asked', accessLevel: 'full' });
  await core.close();
  [plain, apps] = await Promise.all([launch('launcher-plain'), launch('launcher-apps', APPS_CAPABILITY)]);
}, 60_000);

afterAll(async () => {
  for (const launched of [plain, apps]) await launched?.launcher.stop();
  await emulator?.close();
  await dirs?.cleanup();
});

const exists = (uid: string) => blockExists(emulator.graph('asked'), uid);
const shown = (launched: Launched, id: string) => launched.launcher.proposals.list().find((p) => p.id === id);
const gone = (launched: Launched, id: string) => (shown(launched, id) ? undefined : true);
/** The chat's journal as the agent reads it: its changes by the tool, and what became of its proposals. */
const changesOf = async (client: Client) =>
  JSON.parse(textOf(await client.callTool({ name: 'list_changes', arguments: {} }))) as {
    proposals: Array<{ id: string; status: string }>;
    changes: Array<{ id: string; tool: string; undoable: boolean }>;
  };
const deletions = async (client: Client) =>
  (await changesOf(client)).changes.filter((c) => c.tool === 'delete_page').length;

it('a write held for a client that can neither ask nor draw apps waits in the launcher, in the person’s words; Approve there does it once, journaled', async () => {
  const result = await deletePage(plain.client, 'Approved');
  expect(textOf(result)).toMatch(
    /Waiting for the person, nothing changed yet: .*They answer in Roam Companion/s,
  );
  const id = proposalId(result);
  const view = await waitFor(() => shown(plain, id));
  expect(view).toMatchObject({ graph: 'Asked', tool: 'delete_page' });
  expect(view.question).toContain('Approved page');
  expect(view.taken.blocks.map((b) => b.text)).toContain('Approved line 0');
  expect(view.taken.hidden).toBeGreaterThan(0);
  // Never a uid, never hidden text in what the shell is told.
  const told = JSON.stringify(plain.published);
  expect(told).not.toContain(pageUid('Approved'));
  expect(told).not.toContain(uidOf('app', 1));
  expect(told).not.toContain(SECRET);
  expect(exists(pageUid('Approved'))).toBe(true);
  const before = await deletions(plain.client);

  const answered = await plain.launcher.proposals.answer(id, 'approve');
  expect(answered).toEqual({
    done: true,
    outcome: expect.stringMatching(/^Approved by the person and done/),
  });
  expect(exists(pageUid('Approved'))).toBe(false);
  await waitFor(() => gone(plain, id));
  // The agent reads what the person decided, and the write is its journaled, undoable change, once.
  const journal = await changesOf(plain.client);
  expect(journal.proposals.find((p) => p.id === id)?.status).toBe('approved');
  expect(journal.changes.filter((c) => c.tool === 'delete_page')).toEqual([
    expect.objectContaining({ undoable: true }),
  ]);
  expect(before).toBe(0);

  // A replay is refused and changes nothing.
  await expect(plain.launcher.proposals.answer(id, 'approve')).rejects.toMatchObject({
    code: 'NOT_FOUND',
    message: expect.stringMatching(/no longer waits for an answer/),
  });
  expect(await deletions(plain.client)).toBe(1);
});

it('a forged or unknown id is refused by the launcher, and by the child even if it came down the pipe', async () => {
  const id = proposalId(await deletePage(plain.client, 'Forged'));
  await waitFor(() => shown(plain, id));
  for (const forged of ['p-madeup0000', `${id}x`, id.toUpperCase()])
    await expect(plain.launcher.proposals.answer(forged, 'approve')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  // Straight down the IPC pipe, past the launcher's list: the child applies nothing it did not offer.
  const replies: unknown[] = [];
  const hear = (message: unknown) => replies.push(message);
  plain.child.on('message', hear);
  plain.child.send({ type: 'proposal-answer', id: 'p-madeup0000', answer: 'approve' });
  const reply = await waitFor(() =>
    replies.find((m) => (m as { type: string; id?: string }).id === 'p-madeup0000'),
  );
  plain.child.off('message', hear);
  expect(reply).toMatchObject({ type: 'proposal-answered', done: false });
  expect(exists(pageUid('Forged'))).toBe(true);
  // The real one still waits and still answers.
  expect(shown(plain, id)).toBeDefined();
  expect(await plain.launcher.proposals.answer(id, 'keep')).toEqual({
    done: true,
    outcome: expect.stringMatching(/^Kept/),
  });
  expect(exists(pageUid('Forged'))).toBe(true);
});

it('answered in the chat first, the proposal leaves the launcher’s list and the launcher’s late answer is refused', async () => {
  const result = await deletePage(apps.client, 'Chat');
  expect(textOf(result)).toMatch(/in the approval shown in this chat or in Roam Companion/);
  const id = proposalId(result);
  await waitFor(() => shown(apps, id));
  const approve = result._meta?.['roam-companion/approve'] as {
    tool: string;
    arguments: Record<string, string>;
  };
  // The one-time code never reached the launcher's side.
  expect(JSON.stringify(apps.published)).not.toContain(approve.arguments.code);
  const inChat = (await apps.client.callTool({
    name: approve.tool,
    arguments: approve.arguments,
  })) as CallToolResult;
  expect(inChat.isError ?? false).toBe(false);
  expect(exists(pageUid('Chat'))).toBe(false);
  await waitFor(() => gone(apps, id));
  await expect(apps.launcher.proposals.answer(id, 'keep')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(exists(pageUid('Chat'))).toBe(false);
});

it('the chat and the launcher answering at once: exactly one answer is applied, the other is told it came late', async () => {
  const result = await deletePage(apps.client, 'Both');
  const id = proposalId(result);
  await waitFor(() => shown(apps, id));
  const keep = result._meta?.['roam-companion/keep'] as { tool: string; arguments: Record<string, string> };
  const [inChat, inLauncher] = await Promise.all([
    apps.client.callTool({ name: keep.tool, arguments: keep.arguments }) as Promise<CallToolResult>,
    apps.launcher.proposals.answer(id, 'approve').catch((error: { code: string }) => error),
  ]);
  const chatWon = !inChat.isError;
  const launcherWon = 'done' in inLauncher && inLauncher.done;
  expect([chatWon, launcherWon].filter(Boolean)).toHaveLength(1);
  // The loser is told in words what became of the change: the launcher by done: false (or
  // NOT_FOUND once the list had closed it), the chat by an error.
  if (chatWon) expect(JSON.stringify(inLauncher)).toMatch(/Kept: the person|no longer waits/);
  else expect(textOf(inChat)).toMatch(/No waiting proposal matches these values/);
  // Keep (the chat) leaves the page; Approve (the launcher) removes it: the graph shows who won.
  expect(exists(pageUid('Both'))).toBe(chatWon);
  await waitFor(() => gone(apps, id));
});

it('undoing an upload waits in the launcher named by the file’s name, never its address; Approve there deletes the file once', async () => {
  const upload = (await plain.client.callTool({
    name: 'file_upload',
    arguments: {
      base64: Buffer.from('%PDF-1.4 minutes').toString('base64'),
      mimetype: 'application/pdf',
      filename: 'minutes.pdf',
    },
  })) as CallToolResult;
  const fileUrl = (JSON.parse(textOf(upload)) as { url: string }).url;
  const [address, query] = fileUrl.split('?') as [string, string];
  expect(query).toMatch(/token=/);
  const stored = () => {
    try {
      emulator.graph('asked').run('file.get', [{ url: fileUrl }]);
      return true;
    } catch {
      return false;
    }
  };
  const change = (await changesOf(plain.client)).changes.find((c) => c.tool === 'file_upload')!.id;

  const result = (await plain.client.callTool({
    name: 'undo_changes',
    arguments: { ids: [change] },
  })) as CallToolResult;
  expect(textOf(result)).toMatch(/Waiting for the person, nothing changed yet: .*'minutes\.pdf'/s);
  const id = proposalId(result);
  const view = await waitFor(() => shown(plain, id));
  expect(view.taken.files).toEqual([{ name: 'minutes.pdf', shownIn: { blocks: 0, pages: [] } }]);
  expect(view.taken.changes).toBe(1);
  const told = JSON.stringify(plain.published);
  for (const leak of ['token=', query, 'https://', 'firebasestorage', address, change])
    expect(told).not.toContain(leak);
  expect(stored()).toBe(true);

  emulator.clearRequests();
  expect(await plain.launcher.proposals.answer(id, 'approve')).toEqual({
    done: true,
    outcome: expect.stringMatching(/^Approved by the person and done \(undo_changes\)/),
  });
  expect(stored()).toBe(false);
  await expect(plain.launcher.proposals.answer(id, 'approve')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(emulator.requests.filter((r) => r.action === 'file.delete')).toHaveLength(1);
});

it('when the child goes, its proposals go with it and an answer is refused', async () => {
  const id = proposalId(await deletePage(plain.client, 'Gone'));
  await waitFor(() => shown(plain, id));
  await plain.client.close();
  expect(await plain.launcher.exited).toBe(0);
  expect(plain.launcher.proposals.list()).toEqual([]);
  expect(plain.published.at(-1)).toEqual([]);
  await expect(plain.launcher.proposals.answer(id, 'approve')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(exists(pageUid('Gone'))).toBe(true);
});
