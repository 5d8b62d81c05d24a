/**
 * The journal API the tray builds on (src-mcp/changes/index.ts), in-process against the
 * emulator: a tool call's writes journaled through ToolRecord (as tool-call.ts does), chats
 * grouped with their client, filters, createdByAgent, a file watch that reports appends, and an
 * undo with the caller's own Local API access (dry run first).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { scopeOfAction } from '../../../src-shared/local-api/index.ts';
import {
  createdByAgent,
  describeChange,
  Journal,
  JournalStore,
  listChanges,
  listChats,
  undoChanges,
  watchJournal,
  type Caller,
  type Change,
  type ChatRef,
} from '../../../src-mcp/changes/index.ts';
import { ToolRecord } from '../../../src-mcp/changes/journal/record.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let dir: string;
let emulator: Emulator;
let journal: Journal;
beforeEach(async () => {
  dir = await tempDir('changes-api-');
  emulator = await startEmulator({
    home: dir,
    graphs: [
      {
        name: 'work',
        content: [{ title: 'Notes', uid: 'notespg01', children: [{ string: 'first', uid: 'first0001' }] }],
      },
    ],
  });
  journal = new Journal(new JournalStore(path.join(dir, 'journal')));
});
afterEach(async () => {
  await journal.store.close();
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

const chat = (id: string, name: string): ChatRef => ({
  id,
  startedAt: new Date().toISOString(),
  kind: 'agent',
  client: { name, version: '1.2' },
});

/** One tool call's writes, journaled as tool-call.ts does, sent as the AI user. */
async function toolCall(tool: string, who: ChatRef, writes: Array<[string, unknown[]]>): Promise<unknown[]> {
  const record = new ToolRecord({
    graph: { name: 'work', type: 'hosted' },
    tool,
    chat: who,
    journal: async () => journal,
    isWrite: (action) => scopeOfAction(action) !== 'read',
  });
  const agent = emulator.graph('work').asAgent();
  const call = record.wrap(async <T>(action: string, args: unknown[] = []) => agent.run(action, args) as T);
  const results: unknown[] = [];
  for (const [action, args] of writes) results.push(await call(action, args));
  await record.finish();
  return results;
}

const caller: Caller = async (graph, action, args) => emulator.graph(graph).run(action, args);

it('groups changes by chat with the client, filters them, and knows what agents created', async () => {
  const a = chat('chat-a', 'Claude Desktop');
  const b = chat('chat-b', 'Cursor');
  const [created] = (await toolCall('create_block', a, [
    [
      'data.block.fromMarkdown',
      [{ location: { 'parent-uid': 'notespg01', order: 'last' }, 'markdown-string': 'made by a' }],
    ],
  ])) as Array<{ uids: string[] }>;
  const cut = Date.now();
  await toolCall('update_block', b, [
    ['data.block.update', [{ block: { uid: 'first0001', string: 'edited by b' } }]],
  ]);

  const chats = await listChats({}, { journal });
  expect(chats.map((c) => [c.chat.id, c.chat.client?.name, c.changes, c.undoable])).toEqual([
    ['chat-b', 'Cursor', 1, 1],
    ['chat-a', 'Claude Desktop', 1, 1],
  ]);
  expect((await listChanges({ chat: 'chat-a' }, { journal })).map((c) => c.summary)).toEqual([
    // No uid in a line a person reads: the tray names the place when it can ask Roam.
    "Added 'made by a'",
  ]);
  expect((await listChanges({ since: cut }, { journal })).map((c) => c.chat.id)).toEqual(['chat-b']);
  const uid = created?.uids[0] as string;
  expect(await createdByAgent('work', [uid, 'first0001'], { journal })).toEqual(new Set([uid]));
});

it('undoes with the caller’s own access, after a dry run that changes nothing', async () => {
  const before = graphSnapshot(emulator.graph('work'));
  const a = chat('chat-a', 'Claude Desktop');
  await toolCall('update_block', a, [
    ['data.block.update', [{ block: { uid: 'first0001', string: 'edited' } }]],
  ]);
  await toolCall('delete_block', a, [['data.block.delete', [{ block: { uid: 'first0001' } }]]]);
  const changed = graphSnapshot(emulator.graph('work'));

  const dry = await undoChanges({ chat: 'chat-a', dryRun: true }, caller, { journal });
  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'would-undo']);
  expect(dry.runs).toEqual([]);
  expect(graphSnapshot(emulator.graph('work'))).toEqual(changed);

  const done = await undoChanges({ chat: 'chat-a' }, caller, { journal });
  expect(done).toMatchObject({ undone: 2, conflicts: 0 });
  expect(graphSnapshot(emulator.graph('work'))).toEqual(before);
  const [run] = await listChanges({}, { journal });
  expect(run?.chat.kind).toBe('person');
  expect(run?.undoes).toHaveLength(2);
  expect(await createdByAgent('work', ['first0001'], { journal })).toEqual(new Set());
});

it('tells a watcher when any process appends to the journal', async () => {
  // A watch may still deliver an earlier test's appends: wait for the call that shows this one.
  const shown = () => listChanges({ chat: 'chat-w' }, { journal }).then((c) => c.length === 1);
  const watch = await new Promise<{ close(): void }>((resolve) => {
    const onChange = () =>
      void shown().then((yes) => {
        if (yes) void started.then(resolve);
      });
    const started = watchJournal(onChange, {
      journal,
      debounceMs: 10,
    });
    void started.then(() =>
      toolCall('update_block', chat('chat-w', 'w'), [
        ['data.block.update', [{ block: { uid: 'first0001', open: false } }]],
      ]),
    );
  });
  watch.close();
  expect(await shown()).toBe(true);
});

it('describes each op for a diff view, with hidden texts replaced for an agent', async () => {
  const a = chat('chat-desc', 'Claude');
  await toolCall('update_block', a, [
    ['data.block.update', [{ block: { uid: 'first0001', string: 'pin 1234 #.rm-private' } }]],
  ]);
  await toolCall('move_block', a, [
    [
      'data.block.move',
      [{ location: { 'parent-uid': 'notespg01', order: 'last' }, block: { uid: 'first0001' } }],
    ],
  ]);
  const [moved, edited] = await listChanges({ chat: 'chat-desc' }, { journal });

  expect(describeChange(edited as Change)).toEqual([
    {
      kind: 'edit',
      summary: "Edited a block in 'Notes': 'first' → 'pin 1234 #.rm-private'",
      uid: 'first0001',
      changed: ['string'],
      page: 'Notes',
      before: 'first',
      after: 'pin 1234 #.rm-private',
    },
  ]);
  const forAgent = describeChange(edited as Change, { hidden: { uids: new Set(), strings: new Set() } });
  expect(JSON.stringify(forAgent)).not.toContain('1234');
  expect(describeChange(moved as Change)[0]).toMatchObject({
    kind: 'move',
    from: { parent: 'notespg01', page: 'Notes' },
    to: { parent: 'notespg01' },
  });
});
