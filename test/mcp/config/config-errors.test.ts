/**
 * Config problems surface on stderr at startup and as tool errors, never as a crash; --read-only
 * and read-only tokens hide write tools. Each case is its own process with its own HOME.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import {
  errorOf,
  newToken,
  removeHome,
  startMcp,
  tempHome,
  type McpHandle,
  toolsConfigPath,
  writeToolsConfig,
} from '../../harness/mcp-bin.ts';

const homes: string[] = [];
const handles: McpHandle[] = [];

async function serverWith(
  config: string | undefined,
  options: { env?: Record<string, string>; args?: string[]; file?: string } = {},
) {
  const home = await tempHome();
  homes.push(home);
  if (config !== undefined) {
    const file = path.join(home, options.file ?? '.roam-tools.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, config);
  }
  const handle = await startMcp({ home, env: options.env, args: options.args });
  handles.push(handle);
  return { home, mcp: handle };
}

afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
  await Promise.all(homes.map(removeHome));
});

describe('config problems', () => {
  it('no config: every tool answers CONFIG_NOT_FOUND explaining connect, the file format and env vars', async () => {
    const { mcp } = await serverWith(undefined);
    for (const tool of ['list_graphs', 'get_page']) {
      const error = errorOf(await mcp.call(tool, tool === 'get_page' ? { title: 'x' } : {}));
      expect(error.code).toBe('CONFIG_NOT_FOUND');
      expect(error.message).toMatch(/roam-mcp(\.mjs)? connect/); // the command of the copy that runs
      expect(error.message).toMatch(/"graphs"/);
      expect(error.message).toMatch(/ROAM_API_TOKEN/);
    }
    expect(mcp.stderr()).toMatch(/No Roam graph is configured/);
  });

  it('malformed JSON: names the file, line and column', async () => {
    const { home, mcp } = await serverWith('{\n  "graphs": [\n    {"name": "a",}\n  ]\n}');
    const error = errorOf(await mcp.call('list_graphs'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(toolsConfigPath(home));
    expect(error.message).toMatch(/line 3, column \d+/);
    expect(mcp.stderr()).toMatch(/line 3, column/);
  });

  it('wrong types, nickname clashes and remote tokens are named (the token never repeated)', async () => {
    const remote = `roam-graph-token-${'z'.repeat(29)}`;
    const [types, clash, remoteToken] = await Promise.all([
      serverWith(JSON.stringify({ graphs: [{ name: 'a', type: 'cloud' }, { name: 7 }] })),
      serverWith(
        JSON.stringify({
          graphs: [
            { name: 'a', nickname: 'Work' },
            { name: 'b', nickname: 'work' },
          ],
        }),
      ),
      serverWith(JSON.stringify({ graphs: [{ name: 'a', token: remote }] })),
    ]);
    const typeError = errorOf(await types.mcp.call('list_graphs'));
    expect(typeError.message).toMatch(/graphs\[0\]\.type/);
    expect(typeError.message).toMatch(/graphs\[1\]\.name/);
    const clashError = errorOf(await clash.mcp.call('list_graphs'));
    expect(clashError).toMatchObject({ code: 'CONFIG_INVALID' });
    expect(clashError.message).toMatch(/Nickname 'work'.*clashes with 'Work'/);
    const remoteError = errorOf(await remoteToken.mcp.call('get_page', { title: 'x' }));
    expect(remoteError.message).toMatch(/remote API token/);
    expect(remoteToken.mcp.transcript()).not.toContain('z'.repeat(29));
  });

  it('Unicode look-alike, invisible and name-shadowing nicknames are config errors naming both graphs', async () => {
    const config = (...graphs: object[]) => serverWith(JSON.stringify({ graphs }));
    const servers = await Promise.all([
      config({ name: 'a', nickname: 'Work' }, { name: 'b', nickname: 'Ｗork' }),
      config({ name: 'a', nickname: 'Caf\u00E9' }, { name: 'b', nickname: 'Cafe\u0301' }),
      config({ name: 'a', nickname: 'Work' }, { name: 'b', nickname: 'Wo\u200Brk' }),
      config({ name: 'a', nickname: 'Work' }, { name: 'b', nickname: 'W\u043Erk' }),
      config({ name: 'work2', nickname: 'Work' }, { name: 'personal', nickname: 'work2' }),
    ]);
    const messages = await Promise.all(
      servers.map(async ({ mcp }) => {
        const error = errorOf(await mcp.call('select_graph', { graph: 'work2' }));
        expect(error.code).toBe('CONFIG_INVALID');
        return error.message;
      }),
    );
    expect(messages[0]).toMatch(
      /'Ｗork' \(graph 'b'\) clashes with 'Work', already the nickname of graph 'a'/,
    );
    expect(messages[1]).toMatch(/\(graph 'b'\) clashes with 'Café', already the nickname of graph 'a'/);
    expect(messages[2]).toMatch(/Graph 'b': the nickname 'Wo<U\+200B>rk' contains an invisible/);
    expect(messages[3]).toMatch(/Graph 'b': .* mixes Latin and Cyrillic letters/);
    expect(messages[4]).toMatch(
      /'work2' \(graph 'personal'\) clashes with 'work2', already the name of graph 'work2'/,
    );
  });

  it('a graph is found by any Unicode variant of its nickname', async () => {
    // Roam is not running in this test: a found graph answers ROAM_NOT_RUNNING after the bounded
    // wait for Roam to start, which is not what this test is about, so it is none.
    const { mcp } = await serverWith(JSON.stringify({ graphs: [{ name: 'notes', nickname: 'Caf\u00E9' }] }), {
      env: { ROAM_MCP_ROAM_WAIT_MS: '0' },
    });
    for (const graph of ['CAFE\u0301', 'Ｃａｆé']) {
      // Found, not GRAPH_NOT_FOUND.
      expect(errorOf(await mcp.call('get_page', { graph, title: 'x' })).code).toBe('ROAM_NOT_RUNNING');
    }
    expect(errorOf(await mcp.call('get_page', { graph: 'Cafe', title: 'x' })).code).toBe('GRAPH_NOT_FOUND');
  });

  it('--config with a missing file, ROAM_API_TOKEN without ROAM_GRAPH, and a bad ROAM_GRAPH_TYPE', async () => {
    const [missing, noGraph, badType] = await Promise.all([
      serverWith(undefined, { args: ['--config', '~/nowhere.json'] }),
      serverWith(undefined, { env: { ROAM_API_TOKEN: newToken() } }),
      serverWith(undefined, { env: { ROAM_GRAPH: 'g', ROAM_GRAPH_TYPE: 'cloud' } }),
    ]);
    expect(errorOf(await missing.mcp.call('list_graphs')).message).toContain(
      path.join(missing.home, 'nowhere.json'),
    );
    expect(errorOf(await noGraph.mcp.call('list_graphs')).message).toMatch(/ROAM_GRAPH/);
    expect(errorOf(await badType.mcp.call('list_graphs')).message).toMatch(/ROAM_GRAPH_TYPE/);
  });

  it('reads --config PATH and the legacy ~/.roam-mcp.json', async () => {
    const graphs = JSON.stringify({ graphs: [{ name: 'from-file', nickname: 'F' }] });
    const [explicit, legacy] = await Promise.all([
      serverWith(graphs, { file: 'conf/custom.json', args: ['--config', '~/conf/custom.json'] }),
      serverWith(graphs, { file: '.roam-mcp.json' }),
    ]);
    for (const { mcp } of [explicit, legacy]) {
      expect((await mcp.call('list_graphs')).structuredContent).toMatchObject({
        items: [{ name: 'from-file' }],
      });
    }
  });
});

describe('write tools are hidden when nothing may write', () => {
  let emulator: Emulator;
  let home: string;
  const token = newToken();
  beforeAll(async () => {
    home = await tempHome();
    homes.push(home);
    emulator = await startEmulator({
      home,
      graphs: [{ name: 'g', content: 'demo', tokens: [{ token, accessLevel: 'full' }] }],
    });
  });
  afterAll(() => emulator.close());

  it('--read-only lists only read tools and refuses writes with ACCESS_LEVEL naming --read-only', async () => {
    const mcp = await startMcp({
      home,
      env: { ROAM_GRAPH: 'g', ROAM_API_TOKEN: token },
      args: ['--read-only'],
    });
    handles.push(mcp);
    const { tools } = await mcp.client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    // Only tools that change what Roam Desktop shows (never graph data) are not read-only;
    // setup_new_graph opens Roam's dialog (with --read-only it only lists graphs, docs/mcp.md).
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([
      'setup_new_graph',
      'open_main_window',
      'open_sidebar',
    ]);
    await mcp.call('select_graph', { graph: 'g' });
    expect(errorOf(await mcp.call('delete_page', { uid: 'apollo-pg' }))).toMatchObject({
      code: 'ACCESS_LEVEL',
      setting: '--read-only',
      message: expect.stringMatching(/removes --read-only from the MCP client's config/),
    });
    expect(emulator.graph('g').run('data.ai.getPage', [{ uid: 'apollo-pg' }])).not.toBeNull();
  });

  it('a read-only level on every graph hides write tools too', async () => {
    await writeToolsConfig(home, {
      text: JSON.stringify({ graphs: [{ name: 'g', token, accessLevel: 'read-only' }] }),
    });
    const mcp = await startMcp({ home });
    handles.push(mcp);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_page');
    expect(tools.map((t) => t.name)).not.toContain('create_block');
    expect(errorOf(await mcp.call('create_block', { markdown: 'x', pageTitle: 'y' }))).toMatchObject({
      code: 'ACCESS_LEVEL',
      setting: `accessLevel in ${toolsConfigPath(home)}`,
    });
  });
});
