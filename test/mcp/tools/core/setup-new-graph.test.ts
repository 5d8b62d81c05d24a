/**
 * setup_new_graph through the built bin, standalone: it lists Roam Desktop's graphs (marking the
 * connected ones), adds one after the user approves in Roam (the emulator's token exchange) into
 * ~/.roam-tools.json (0600), usable at once by its nickname; never a token in a result; a taken
 * nickname or an unknown graph is refused before any dialog; a --read-only server only lists.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portFilePath } from '../../../../src-shared/local-api/index.ts';
import type { Emulator } from '../../../emulator/index.ts';
import {
  errorOf,
  jsonOf,
  newToken,
  startMcp,
  type McpHandle,
  toolsConfigPath,
} from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';
import { removeDir, tempDir } from '../../../harness/temp-dir.ts';

const WORK = newToken();
let world: StdioWorld;
let home: string;
let emptyHome: string;
let emulator: Emulator;
let mcp: McpHandle;

const tokenRequests = () => emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request');
const configOf = async (dir: string) =>
  JSON.parse(await readFile(toolsConfigPath(dir), 'utf8')) as {
    graphs: Array<Record<string, unknown>>;
  };

beforeAll(async () => {
  emptyHome = await tempDir('roam-mcp-test-');
  world = await startStdioWorld({
    prefix: 'roam-mcp-test-',
    emulator: {
      graphs: [
        { name: 'work', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] },
        { name: 'fresh', content: 'demo' },
        { name: 'other', content: 'demo' },
        { name: 'dormant', content: 'demo' },
        { name: 'private', content: 'demo' },
        { name: 'mine', content: 'demo' },
        { name: 'late-off', content: 'demo' },
      ],
    },
    config: {
      text: JSON.stringify({
        version: 1,
        graphs: [
          { name: 'work', type: 'hosted', nickname: 'Work', token: WORK, accessLevel: 'full' },
          { name: 'dormant', type: 'hosted', nickname: 'Dormant', disabled: true },
        ],
      }),
      mode: 0o600,
    },
  });
  ({ home, emulator, mcp } = world);
  // The user approves every dialog in Roam (no call has asked for a token yet).
  emulator.autoDecide({ kind: 'approve' });
});

afterAll(async () => {
  await world?.close();
  await removeDir(emptyHome);
});

describe('setup_new_graph', () => {
  it("without arguments lists Roam Desktop's graphs, marking the connected ones", async () => {
    const list = jsonOf<{ graphs: Array<Record<string, unknown>> }>(await mcp.call('setup_new_graph', {}));
    expect(list.graphs).toEqual(
      expect.arrayContaining([
        { name: 'work', connected: true, nickname: 'Work' },
        { name: 'fresh', connected: false },
        { name: 'dormant', connected: false, nickname: 'Dormant', switched_off: true },
      ]),
    );
  });

  it('refuses a taken nickname and an unknown graph before any dialog in Roam', async () => {
    emulator.clearRequests();
    const taken = errorOf(await mcp.call('setup_new_graph', { graph: 'fresh', nickname: 'work' }));
    expect(taken).toMatchObject({ code: 'INVALID_PARAMS', field: 'nickname' });
    const unknown = errorOf(await mcp.call('setup_new_graph', { graph: 'nope', nickname: 'Nope' }));
    expect(unknown).toMatchObject({ code: 'GRAPH_NOT_FOUND', suggested_next_tool: 'setup_new_graph' });
    const off = errorOf(await mcp.call('setup_new_graph', { graph: 'dormant', nickname: 'Sleepy' }));
    expect(off).toMatchObject({ code: 'GRAPH_SWITCHED_OFF', graph: 'Dormant' });
    const half = errorOf(await mcp.call('setup_new_graph', { graph: 'fresh' }));
    expect(half).toMatchObject({ code: 'INVALID_PARAMS', field: 'nickname' });
    expect(tokenRequests()).toHaveLength(0);
  });

  it('adds an approved graph to ~/.roam-tools.json (0600), usable at once by its nickname, without a token in the result', async () => {
    const added = await mcp.call('setup_new_graph', { graph: 'fresh', nickname: 'Fresh notes' });
    expect(jsonOf(added)).toMatchObject({
      graph_name: 'fresh',
      nickname: 'Fresh notes',
      access_level: 'read-append',
      saved_to: toolsConfigPath(home),
    });
    const config = await configOf(home);
    const entry = config.graphs.find((g) => g.name === 'fresh')!;
    expect(entry).toMatchObject({ nickname: 'Fresh notes', accessLevel: 'read-append' });
    expect(typeof entry.token).toBe('string');
    expect((await stat(toolsConfigPath(home))).mode & 0o777).toBe(0o600);
    expect(mcp.transcript()).not.toContain(entry.token as string);

    emulator.clearRequests();
    const selected = jsonOf(await mcp.call('select_graph', { graph: 'Fresh notes' }));
    expect(selected).toMatchObject({ graph_name: 'fresh', nickname: 'Fresh notes' });
    const created = await mcp.call('create_block', { pageTitle: 'From setup', markdown: 'hello' });
    expect(created.isError ?? false).toBe(false);
    expect(tokenRequests()).toHaveLength(0);

    const again = jsonOf(await mcp.call('setup_new_graph', { graph: 'fresh', nickname: 'Other name' }));
    expect(again).toMatchObject({ already_configured: true, nickname: 'Fresh notes' });
  });

  it('reads the graph from the file at the call: a level, nickname or switch-off set after the server started holds', async () => {
    // While the chat runs, the person adds graphs to ~/.roam-tools.json by hand.
    const file = toolsConfigPath(home);
    const config = await configOf(home);
    config.graphs.push(
      { name: 'private', type: 'hosted', accessLevel: 'read-only' },
      { name: 'mine', type: 'hosted', nickname: 'Mine', accessLevel: 'full' },
      { name: 'late-off', type: 'hosted', nickname: 'Later', disabled: true },
    );
    await writeFile(file, JSON.stringify(config));

    const added = jsonOf(await mcp.call('setup_new_graph', { graph: 'private', nickname: 'Scratch' }));
    expect(added).toMatchObject({ graph_name: 'private', nickname: 'Scratch', access_level: 'read-only' });
    expect((await configOf(home)).graphs.find((g) => g.name === 'private')).toMatchObject({
      nickname: 'Scratch',
      accessLevel: 'read-only',
    });
    const request = tokenRequests().at(-1)!;
    expect(request.body).toMatchObject({ accessLevel: 'read-only' });
    const write = errorOf(
      await mcp.call('create_block', { graph: 'Scratch', pageTitle: 'X', markdown: 'no' }),
    );
    expect(write).toMatchObject({ code: 'ACCESS_LEVEL', access_level: 'read-only' });

    const named = jsonOf(await mcp.call('setup_new_graph', { graph: 'mine', nickname: 'Agent name' }));
    expect(named).toMatchObject({
      nickname: 'Mine',
      access_level: 'full',
      note: expect.stringContaining("'Mine'"),
    });
    expect(jsonOf(await mcp.call('select_graph', { graph: 'Mine' }))).toMatchObject({ graph_name: 'mine' });

    emulator.clearRequests();
    const off = errorOf(await mcp.call('setup_new_graph', { graph: 'late-off', nickname: 'On again' }));
    expect(off).toMatchObject({ code: 'GRAPH_SWITCHED_OFF', graph: 'Later' });
    expect(tokenRequests()).toHaveLength(0);
  });

  it('creates ~/.roam-tools.json (0600) when the server started without one', async () => {
    // Roam's port file, as Roam Desktop writes it in every home that runs it.
    await writeFile(portFilePath(emptyHome), await readFile(portFilePath(home)));
    const bare = await startMcp({ home: emptyHome });
    try {
      const added = await bare.call('setup_new_graph', { graph: 'other', nickname: 'Other' });
      expect(jsonOf(added)).toMatchObject({ saved_to: toolsConfigPath(emptyHome) });
      expect((await stat(toolsConfigPath(emptyHome))).mode & 0o777).toBe(0o600);
      expect((await configOf(emptyHome)).graphs).toEqual([
        expect.objectContaining({ name: 'other', nickname: 'Other' }),
      ]);
      expect(jsonOf(await bare.call('list_graphs', {}))).toMatchObject({ total: 1 });
    } finally {
      await bare.close();
    }
  });

  it('a --read-only server lists but does not add graphs', async () => {
    const reader = await startMcp({ home, args: ['--read-only'] });
    try {
      expect(jsonOf(await reader.call('setup_new_graph', {}))).toHaveProperty('graphs');
      emulator.clearRequests();
      const refused = errorOf(await reader.call('setup_new_graph', { graph: 'other', nickname: 'O' }));
      expect(refused.code).toBe('ACCESS_LEVEL');
      expect(refused.message).toMatch(/roam-mcp connect/);
      expect(tokenRequests()).toHaveLength(0);
    } finally {
      await reader.close();
    }
  });
});
