/**
 * Read only means every write, from every config source, whatever the token could do: each tool
 * tools/list marks as changing the graph (readOnlyHint false, Roam Desktop's UI tools aside) is
 * called through the built bin against the emulator on a graph set to read-only behind a full
 * token — blocks, pages, batch items, comments, daily notes, shortcuts, file upload and delete,
 * extension tools that declare append or edit, reloading dev extensions. Each answers
 * ACCESS_LEVEL naming the setting and how to change it, and no write reaches Roam. The same calls
 * on a full graph of the same process get past the check, so they are real writes.
 *
 * Sources: ~/.roam-tools.json found by default (no --config), ROAM_GRAPH + ROAM_API_TOKEN with
 * ROAM_ACCESS_LEVEL, and --read-only over a full level. (--config and the tray's store through
 * --mcp: test/mcp/access/access-levels.test.ts and access-every-write-tray.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf, newToken, startMcp, toolsConfigPath } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { callEveryWrite, graph, writeToolNames, WRITES, writesTo } from './every-write.ts';

const LOCKED_TOKEN = newToken();
const OPEN_TOKEN = newToken();
const APPEND_TOKEN = newToken();

let world: StdioWorld;
let tools: string[];

beforeAll(async () => {
  world = await startStdioWorld({
    prefix: 'roam-every-write-',
    emulator: {
      graphs: [graph('locked', LOCKED_TOKEN), graph('open', OPEN_TOKEN), graph('append', APPEND_TOKEN, true)],
    },
    // ~/.roam-tools.json, found without --config.
    config: [
      { name: 'locked', token: LOCKED_TOKEN, nickname: 'Locked', accessLevel: 'read-only' },
      { name: 'open', token: OPEN_TOKEN, nickname: 'Open' },
      { name: 'append', token: APPEND_TOKEN, nickname: 'Append', accessLevel: 'read-append' },
    ],
  });
  tools = await writeToolNames(world.mcp.client);
});

afterAll(async () => {
  await world?.close();
});

describe('every write tool is known to this test', () => {
  it('tools/list offers exactly the writes this test calls (a new write tool must be added here)', () => {
    expect(tools).toEqual(Object.keys(WRITES).sort());
  });
});

describe('read-only chosen in ~/.roam-tools.json, full token', () => {
  it('refuses every write with ACCESS_LEVEL naming the file and how to change it; nothing reaches Roam', async () => {
    const { mcp, emulator, home } = world;
    await mcp.call('select_graph', { graph: 'Locked' });
    emulator.clearRequests();
    const answers = await callEveryWrite(mcp.call, tools);
    for (const { tool, args, error } of answers) {
      expect(error, `${tool} ${JSON.stringify(args)}`).toMatchObject({
        code: 'ACCESS_LEVEL',
        graph: 'Locked',
        access_level: 'read-only',
        setting: `accessLevel in ${toolsConfigPath(home)}`,
      });
      expect(error?.message, tool).toMatch(
        /Nothing was changed\. To allow it, the user changes "accessLevel"/,
      );
    }
    expect(writesTo(emulator, 'locked')).toEqual([]);
  });

  it('the same calls on the full graph get past the check and reach Roam', async () => {
    const { mcp, emulator } = world;
    await mcp.call('select_graph', { graph: 'Open' });
    emulator.clearRequests();
    const answers = await callEveryWrite(mcp.call, tools);
    for (const { tool, error } of answers) expect(error?.code, tool).not.toBe('ACCESS_LEVEL');
    const reached = new Set(writesTo(emulator, 'open').map((r) => r.action));
    // Blocks, pages, batches, comments, shortcuts, files and extension code all reached Roam.
    for (const action of [
      'data.block.update',
      'data.block.move',
      'data.page.delete',
      'data.block.addComment',
      'data.page.addShortcut',
      'file.upload',
    ])
      expect([...reached], action).toContain(action);
    expect([...reached].some((a) => /extension/i.test(a ?? ''))).toBe(true);
  });
});

describe('read-append chosen, full agent token', () => {
  it('refuses editing, moving and deleting even a block the agent itself just created', async () => {
    const { mcp, emulator } = world;
    await mcp.call('select_graph', { graph: 'Append' });
    const [uid] = jsonOf<{ uids: string[] }>(
      await mcp.call('create_block', { parentUid: 'notes-pg', markdown: 'written by the agent' }),
    ).uids as [string];
    const textOf = () =>
      emulator
        .graph('append')
        .run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);
    // Roam counts it as the AI user's (so read-edit-own would allow these): read-append does not.
    emulator.clearRequests();
    for (const [tool, args] of [
      ['update_block', { uid, string: 'edited' }],
      ['move_block', { uid, parentUid: 'target-pg' }],
      ['delete_block', { uid }],
      ['update_blocks', { updates: [{ uid, string: 'edited in a batch' }] }],
      ['delete_blocks', { uids: [uid] }],
    ] as const)
      expect(errorOf(await mcp.call(tool, args)), tool).toMatchObject({
        code: 'ACCESS_LEVEL',
        graph: 'Append',
        access_level: 'read-append',
      });
    expect(writesTo(emulator, 'append')).toEqual([]);
    expect(textOf()).toBe('written by the agent');
  });
});

describe('read-only from ROAM_GRAPH + ROAM_API_TOKEN + ROAM_ACCESS_LEVEL', () => {
  it('refuses every write naming ROAM_ACCESS_LEVEL; nothing reaches Roam', async () => {
    const { emulator, home } = world;
    const mcp = await startMcp({
      home,
      env: { ROAM_GRAPH: 'locked', ROAM_API_TOKEN: LOCKED_TOKEN, ROAM_ACCESS_LEVEL: 'read-only' },
    });
    try {
      await mcp.call('select_graph', { graph: 'locked' });
      emulator.clearRequests();
      for (const { tool, error } of await callEveryWrite(mcp.call, tools)) {
        expect(error, tool).toMatchObject({ code: 'ACCESS_LEVEL', setting: 'ROAM_ACCESS_LEVEL' });
        expect(error?.message, tool).toMatch(/the user changes ROAM_ACCESS_LEVEL/);
      }
      expect(writesTo(emulator, 'locked')).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});

describe('--read-only over a full level and a full token', () => {
  it('refuses every write naming --read-only; nothing reaches Roam', async () => {
    const { emulator, home } = world;
    const mcp = await startMcp({ home, args: ['--read-only'] });
    try {
      await mcp.call('select_graph', { graph: 'Open' });
      emulator.clearRequests();
      for (const { tool, error } of await callEveryWrite(mcp.call, tools)) {
        expect(error, tool).toMatchObject({ code: 'ACCESS_LEVEL', setting: '--read-only' });
        expect(error?.message, tool).toMatch(/removes --read-only/);
      }
      expect(writesTo(emulator, 'open')).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});
