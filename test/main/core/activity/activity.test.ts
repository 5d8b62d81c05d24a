/**
 * Activity in the tray core: an agent (the built bin, a real stdio client) changes a graph, the
 * core's feed shows it live (the journal watch), a dry run of undoing the chat says what would
 * change and what is someone else's since, and the undo restores the graph, keeps the person's
 * edit and leaves the conflict visible on the entry. Real files, real processes, the emulator.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityFeedView } from '../../../../src-shared/ipc-contract.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import {
  errorOf,
  jsonOf,
  newToken,
  startMcp,
  type McpHandle,
  writeToolsConfig,
} from '../../../harness/mcp-bin.ts';
import { nextEvent, startCore, tempDirs, TOKEN_PATTERN } from '../../helpers.ts';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';

const TOKEN = newToken();
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let mcp: McpHandle | undefined;

beforeEach(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      {
        name: 'work',
        content: [
          { title: 'Project', uid: 'projpage1', children: [{ string: 'alpha', uid: 'alpha0001' }] },
          { title: 'Target', uid: 'targetpg1', children: [{ string: 't1', uid: 'target001' }] },
        ],
        tokens: [{ token: TOKEN, accessLevel: 'full', ai: true }],
      },
    ],
  });
  await writeToolsConfig(dirs.home, [{ name: 'work', token: TOKEN, nickname: 'Work', accessLevel: 'full' }]);
  const dataDir = path.join(dirs.home, 'data');
  core = startCore(dirs, { dataDir }).core;
  await core.handlers['import:run'](undefined);
  mcp = await startMcp({ home: dirs.home, env: { ROAM_COMPANION_DATA_DIR: dataDir }, clientName: 'Agent' });
  jsonOf(await mcp.call('select_graph', { graph: 'Work' }));
});

afterEach(async () => {
  await mcp?.close();
  await core?.close();
  await emulator?.close();
  await dirs.cleanup();
});

const changesIn = (feed: ActivityFeedView) => feed.chats.flatMap((c) => c.changes);

describe('Activity in the tray core', () => {
  it('shows an agent’s changes live, and undoes its chat after a dry run, keeping a person’s edit', async () => {
    expect(await core.handlers['activity:list'](undefined)).toEqual({
      chats: [],
      today: 0,
      truncated: false,
    });
    const live = nextEvent(core, 'activity:changed', (feed) => changesIn(feed).length === 2);
    jsonOf(await mcp!.call('update_block', { uid: 'alpha0001', string: 'alpha, rewritten' }));
    jsonOf(await mcp!.call('delete_page', { uid: 'targetpg1' }));
    const feed = await live;
    expect(feed.today).toBe(2);
    const [chat] = feed.chats;
    expect(chat).toMatchObject({ client: 'Agent', kind: 'agent', graphs: ['Work'] });
    expect(chat!.changes.map((c) => c.summary)).toEqual([
      expect.stringMatching(/^Deleted page 'Target'/),
      expect.stringMatching(/^Edited a block .*'alpha' → 'alpha, rewritten'/),
    ]);

    // A person edits the agent's block afterwards: that part is theirs now.
    emulator.graph('work').run('data.block.update', [{ block: { uid: 'alpha0001', string: 'my words' } }]);
    const dry = await core.handlers['activity:undo']({ chat: chat!.id, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, undone: 1, conflicts: 1 });
    expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'conflict']);
    expect(emulator.graph('work').counts().pages).toBe(1); // the dry run wrote nothing

    const done = await core.handlers['activity:undo']({ chat: chat!.id, dryRun: false });
    expect(done).toMatchObject({ dryRun: false, undone: 1, conflicts: 1 });
    expect(emulator.graph('work').run('data.q', ['[:find ?t :where [?p :node/title ?t]]'])).toContainEqual([
      'Target',
    ]);
    expect(
      emulator
        .graph('work')
        .run('data.q', ['[:find ?s . :where [?b :block/uid "alpha0001"] [?b :block/string ?s]]']),
    ).toBe('my words');

    const after = await core.handlers['activity:list'](undefined);
    const edit = changesIn(after).find((c) => c.id === chat!.changes[1]!.id)!;
    expect(edit.lastUndo?.steps[0]).toMatchObject({ status: 'conflict' });
    expect(after.chats.find((c) => c.kind === 'person')).toMatchObject({ client: 'Roam Companion' });
    // The undo's entry says what it took back, and what its conflict left alone, apart.
    const undo = after.chats.find((c) => c.kind === 'person')!.changes[0]!;
    expect(undo.undid).toEqual([expect.stringMatching(/^Deleted page 'Target'/)]);
    expect(undo.leftAlone).toEqual([expect.stringMatching(/^Edited a block .*'alpha' → 'alpha, rewritten'/)]);
    expect(after.today).toBe(2); // a person's undo is not an agent change
    expect(JSON.stringify(after)).not.toMatch(TOKEN_PATTERN);
  });

  it("keeps a person's block the person's when the tray's undo brings it back (issue 40)", async () => {
    await core.handlers['activity:list'](undefined);
    jsonOf(await mcp!.call('delete_block', { uid: 'alpha0001' }));
    const [chat] = (await core.handlers['activity:list'](undefined)).chats;
    const done = await core.handlers['activity:undo']({ chat: chat!.id, dryRun: false });
    expect(done).toMatchObject({ undone: 1, conflicts: 0 });

    // Roam now names the AI user (the tray's token) its creator; a read-edit-own chat is still refused.
    await writeToolsConfig(dirs.home, [
      { name: 'work', token: TOKEN, nickname: 'Work', accessLevel: 'read-edit-own' },
    ]);
    const own = await startMcp({
      home: dirs.home,
      env: { ROAM_COMPANION_DATA_DIR: path.join(dirs.home, 'data') },
    });
    try {
      jsonOf(await own.call('select_graph', { graph: 'Work' }));
      const refused = errorOf(await own.call('update_block', { uid: 'alpha0001', string: 'taken over' }));
      expect(refused).toMatchObject({ code: 'ACCESS_LEVEL' });
      expect(refused.message).toContain('alpha0001');
    } finally {
      await own.close();
    }
  });

  it('says what to do when the tray holds no token for the graph any more', async () => {
    await core.handlers['activity:list'](undefined);
    jsonOf(await mcp!.call('update_block', { uid: 'alpha0001', string: 'alpha, rewritten' }));
    const [change] = changesIn(await core.handlers['activity:list'](undefined));
    await core.handlers['graphs:remove']({ id: 'hosted:work' });
    const dry = await core.handlers['activity:undo']({ ids: [change!.id], dryRun: true });
    expect(dry.changes[0]).toMatchObject({ result: 'failed' });
    expect(dry.changes[0]!.steps[0]!.detail).toMatch(
      /no working token for the graph 'work'\. Add it or request a token in Graphs, then undo again/,
    );
  });

  it('lists past a journal line of the wrong shape (issue 40)', async () => {
    jsonOf(await mcp!.call('update_block', { uid: 'alpha0001', string: 'alpha, rewritten' }));
    // Another process's segment with a `done` without items and a `begin` without its time.
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    await writeFile(
      path.join(dirs.home, 'data', 'journal', `${day}-000000-1-0badba.jsonl`),
      '{"v":1,"k":"done","id":"x","at":1}\n{"v":1,"k":"begin","id":"y","graph":"work","chat":{"id":"c","startedAt":""},"tool":"t","pid":1}\n',
      { mode: 0o600 },
    );
    const feed = await core.handlers['activity:list'](undefined);
    expect(changesIn(feed).map((c) => c.summary)).toEqual([expect.stringMatching(/^Edited a block/)]);
  });

  it('says in plain words when a change is no longer in the journal', async () => {
    await expect(core.handlers['activity:undo']({ ids: ['nope'], dryRun: true })).rejects.toThrow(
      /no longer in the journal/,
    );
  });
});
