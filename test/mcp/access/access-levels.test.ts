/**
 * The access level the user chose holds whatever the token could do (docs/mcp.md, Access levels):
 * through the built bin against the emulator, with a full token behind every graph. The chosen
 * level comes from ~/.roam-tools.json (or --config), from ROAM_ACCESS_LEVEL, and --read-only
 * narrows everything; what select_graph / current_graph / list_graphs report is what is enforced.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type PageSpec } from '../../emulator/index.ts';
import {
  binCommand,
  binEnv,
  errorOf,
  jsonOf,
  newToken,
  removeHome,
  startMcp,
  tempHome,
  toolsConfig,
  type McpHandle,
} from '../../harness/mcp-bin.ts';

const FULL = newToken();
const content: PageSpec[] = [
  {
    title: 'Notes',
    uid: 'notes-pg',
    sidebar: 0,
    children: [
      { string: 'written by a person', uid: 'person-b1' },
      { string: 'also a person', uid: 'person-b2', children: [{ string: 'their child', uid: 'person-b3' }] },
    ],
  },
  { title: 'Elsewhere', uid: 'else-pg', children: [{ string: 'target', uid: 'target-b1' }] },
];
const extensionTools = [
  { tool: 'ext/append-note', description: 'appends', scope: 'append' as const, result: { ok: 'appended' } },
  { tool: 'ext/rewrite', description: 'rewrites', scope: 'edit' as const, result: { ok: 'rewritten' } },
];
let home: string;
let emulator: Emulator;
const handles: McpHandle[] = [];

const stringOf = (uid: string) =>
  emulator
    .graph('levels')
    .run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);
const writesSent = () =>
  emulator.requests.filter(
    (r) => r.action && /^(data\.(block|page)\.|file\.(upload|delete)|data\.ai\.callExtension)/.test(r.action),
  );

async function serve(file: string, accessLevel?: string, args: string[] = []): Promise<McpHandle> {
  const config = path.join(home, file);
  await writeFile(config, toolsConfig([{ name: 'levels', token: FULL, nickname: 'Levels', accessLevel }]));
  const mcp = await startMcp({ home, args: ['--config', config, ...args] });
  handles.push(mcp);
  return mcp;
}

beforeAll(async () => {
  home = await tempHome();
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'levels', content, extensionTools, tokens: [{ token: FULL, accessLevel: 'full' }] }],
  });
});

afterAll(async () => {
  for (const mcp of handles) await mcp.close();
  await emulator?.close();
  await removeHome(home);
});

describe('read-append chosen, full token', () => {
  let mcp: McpHandle;
  beforeAll(async () => {
    mcp = await serve('append.json', 'read-append');
  });

  it('reports exactly read + append, and says the chosen level is enforced', async () => {
    const selected = jsonOf(await mcp.call('select_graph', { graph: 'Levels' }));
    expect(selected).toMatchObject({ permissions: ['read', 'append'], access_level: 'read-append' });
    expect(selected.permissions_note).toMatch(/chose read-append .*token allows full/);
    expect(jsonOf(await mcp.call('current_graph'))).toMatchObject({ permissions: ['read', 'append'] });
    expect(jsonOf(await mcp.call('list_graphs'))).toMatchObject({
      items: [{ nickname: 'Levels', permissions: ['read', 'append'] }],
    });
  });

  it('update_block is refused with ACCESS_LEVEL naming the setting, and the block is unchanged', async () => {
    emulator.clearRequests();
    const error = errorOf(await mcp.call('update_block', { uid: 'person-b1', string: 'overwritten' }));
    expect(error).toMatchObject({
      code: 'ACCESS_LEVEL',
      graph: 'Levels',
      access_level: 'read-append',
      setting: `accessLevel in ${path.join(home, 'append.json')}`,
    });
    expect(error.message).toMatch(/set to read-append/);
    expect(error.message).toMatch(/Nothing was changed/);
    expect(error.message).toMatch(/roam-mcp connect --graph "levels" --access-level full/);
    expect(stringOf('person-b1')).toBe('written by a person');
    expect(writesSent()).toEqual([]);
  });

  it('every edit, move, delete, batch item, file delete and shortcut is refused before Roam', async () => {
    emulator.clearRequests();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['move_block', { uid: 'person-b1', parentUid: 'else-pg' }],
      ['delete_block', { uid: 'person-b1' }],
      ['update_page', { uid: 'notes-pg', title: 'Renamed' }],
      ['delete_page', { uid: 'else-pg' }],
      ['update_blocks', { updates: [{ uid: 'person-b1', string: 'x' }] }],
      ['delete_blocks', { uids: ['person-b2'] }],
      ['file_delete', { url: 'https://firebasestorage.googleapis.com/v0/b/x/o/y.png' }],
      ['add_shortcut', { uid: 'else-pg' }],
      ['remove_shortcut', { uid: 'notes-pg' }],
      ['reload_dev_extensions', {}],
    ];
    for (const [tool, args] of calls)
      expect(errorOf(await mcp.call(tool, args)).code, tool).toBe('ACCESS_LEVEL');
    expect(writesSent()).toEqual([]);
    expect(stringOf('person-b2')).toBe('also a person');
  });

  it('adding is allowed; an extension tool runs only when it declares read or append', async () => {
    expect(jsonOf(await mcp.call('create_block', { parentUid: 'else-pg', markdown: 'added' }))).toMatchObject(
      {
        created: 'blocks',
      },
    );
    expect(jsonOf(await mcp.call('call_extension_tool', { tool: 'ext/append-note' }))).toMatchObject({
      result: { ok: 'appended' },
    });
    emulator.clearRequests();
    const edit = errorOf(await mcp.call('call_extension_tool', { tool: 'ext/rewrite' }));
    expect(edit).toMatchObject({ code: 'ACCESS_LEVEL', tool: 'ext/rewrite', declared_scope: 'edit' });
    const unlisted = errorOf(await mcp.call('call_extension_tool', { tool: 'ext/unknown' }));
    expect(unlisted.message).toMatch(/not listed, so it counts as an edit/);
    expect(writesSent()).toEqual([]);
  });
});

describe('read-only chosen, full token (the demo report, standalone)', () => {
  it('hides every write, refuses create_block and update_block, and nothing reaches Roam', async () => {
    const mcp = await serve('readonly.json', 'read-only');
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get_page');
    expect(names).not.toContain('create_block');
    const selected = jsonOf(await mcp.call('select_graph', { graph: 'Levels' }));
    expect(selected).toMatchObject({ permissions: ['read'], access_level: 'read-only' });
    emulator.clearRequests();
    for (const [tool, args] of [
      ['create_block', { pageTitle: 'Brand New Page', markdown: 'x' }],
      ['update_block', { uid: 'person-b1', string: 'x' }],
    ] as const) {
      const error = errorOf(await mcp.call(tool, args));
      expect(error, tool).toMatchObject({ code: 'ACCESS_LEVEL', access_level: 'read-only' });
      expect(error.message, tool).toMatch(/agents may only read it/);
    }
    expect(writesSent()).toEqual([]);
    expect(emulator.graph('levels').run('data.ai.getPage', [{ title: 'Brand New Page' }])).toBeNull();
  });
});

describe('--read-only', () => {
  it('reports read only in select_graph, current_graph and list_graphs, whatever the token and level', async () => {
    const mcp = await serve('flag.json', 'full', ['--read-only']);
    const selected = jsonOf(await mcp.call('select_graph', { graph: 'Levels' }));
    expect(selected).toMatchObject({ permissions: ['read'], access_level: 'read-only' });
    expect(selected.permissions_note).toMatch(/--read-only/);
    expect(jsonOf(await mcp.call('current_graph'))).toMatchObject({ permissions: ['read'] });
    expect(jsonOf(await mcp.call('list_graphs'))).toMatchObject({ items: [{ permissions: ['read'] }] });
    const error = errorOf(await mcp.call('reload_dev_extensions'));
    expect(error).toMatchObject({ code: 'ACCESS_LEVEL', setting: '--read-only' });
  });
});

describe('reload_dev_extensions', () => {
  it('runs extension code, so it needs select_graph first, like every write', async () => {
    const mcp = await serve('dev.json', 'full');
    expect(errorOf(await mcp.call('reload_dev_extensions'))).toMatchObject({
      code: 'GRAPH_TICKET_REQUIRED',
      suggested_next_tool: 'select_graph',
    });
    await mcp.call('select_graph', { graph: 'Levels' });
    expect(jsonOf(await mcp.call('reload_dev_extensions'))).toEqual({ reloaded: [] });
  });
});

describe('ROAM_ACCESS_LEVEL with ROAM_GRAPH + ROAM_API_TOKEN', () => {
  it('is the chosen level of the env graph', async () => {
    const mcp = await startMcp({
      home,
      env: { ROAM_GRAPH: 'levels', ROAM_API_TOKEN: FULL, ROAM_ACCESS_LEVEL: 'read-append' },
    });
    handles.push(mcp);
    await mcp.call('select_graph', { graph: 'levels' });
    const error = errorOf(await mcp.call('delete_block', { uid: 'person-b1' }));
    expect(error).toMatchObject({ code: 'ACCESS_LEVEL', setting: 'ROAM_ACCESS_LEVEL' });
    expect(stringOf('person-b1')).toBe('written by a person');
  });

  it('an unknown level is a config error naming the valid ones', async () => {
    const mcp = await startMcp({
      home,
      env: { ROAM_GRAPH: 'levels', ROAM_API_TOKEN: FULL, ROAM_ACCESS_LEVEL: 'everything' },
    });
    handles.push(mcp);
    expect(errorOf(await mcp.call('list_graphs'))).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/read-only, read-append, read-edit-own, full/),
    });
  });
});

describe('read-edit-own', () => {
  let mcp: McpHandle;
  let file: string;
  beforeAll(async () => {
    // No token: the exchange asks Roam for full (agent tokens write as the AI user).
    file = path.join(home, 'own.json');
    await writeFile(
      file,
      toolsConfig([{ name: 'levels', nickname: 'Levels', accessLevel: 'read-edit-own' }]),
    );
    emulator.autoDecide({ kind: 'approve' });
    mcp = await startMcp({ home, args: ['--config', file] });
    handles.push(mcp);
  });

  it('asks Roam for a full token, keeps read-edit-own in the config and reports edit-own', async () => {
    emulator.clearRequests();
    const selected = jsonOf(await mcp.call('select_graph', { graph: 'Levels' }));
    expect(selected).toMatchObject({
      permissions: ['read', 'append', 'edit-own'],
      access_level: 'read-edit-own',
    });
    const request = emulator.requests.find((r) => r.path === '/api/graphs/tokens/request');
    expect(request?.body).toMatchObject({ accessLevel: 'full', ai: true });
    const saved = JSON.parse(await readFile(file, 'utf8')) as { graphs: Array<Record<string, unknown>> };
    expect(saved.graphs[0]).toMatchObject({ accessLevel: 'read-edit-own' });
    expect(saved.graphs[0]?.token).toMatch(/^roam-graph-local-token-/);
  });

  it("edits an agent's block, refuses a person's, and checks every batch item", async () => {
    const created = jsonOf<{ uids: string[] }>(
      await mcp.call('create_block', {
        parentUid: 'notes-pg',
        markdown: '- agent wrote this\n  - agent child',
      }),
    );
    const [agentBlock] = created.uids as [string];
    expect(
      jsonOf(await mcp.call('update_block', { uid: agentBlock, string: 'agent edited this' })),
    ).toMatchObject({
      updated: 'block',
    });
    expect(stringOf(agentBlock)).toBe('agent edited this');

    const person = errorOf(await mcp.call('update_block', { uid: 'person-b1', string: 'overwritten' }));
    expect(person).toMatchObject({ code: 'ACCESS_LEVEL', access_level: 'read-edit-own' });
    expect(person.not_agent_created).toEqual([{ id: 'person-b1', reason: 'not created by an agent' }]);
    expect(stringOf('person-b1')).toBe('written by a person');

    emulator.clearRequests();
    const batch = errorOf(
      await mcp.call('update_blocks', {
        updates: [
          { uid: agentBlock, string: 'batch edit' },
          { uid: 'person-b2', string: 'batch overwrite' },
        ],
      }),
    );
    expect(batch.not_agent_created).toEqual([{ id: 'person-b2', reason: 'not created by an agent' }]);
    expect(stringOf(agentBlock)).toBe('agent edited this');
    expect(stringOf('person-b2')).toBe('also a person');
    expect(writesSent()).toEqual([]);
  });

  it("refuses deleting an agent's block that holds a person's block, and deletes it once it does not", async () => {
    const created = jsonOf<{ uids: string[] }>(
      await mcp.call('create_block', { parentUid: 'else-pg', markdown: 'agent parent' }),
    );
    const [parent] = created.uids as [string];
    emulator.graph('levels').run('data.block.create', [
      {
        location: { 'parent-uid': parent, order: 'last' },
        block: { string: 'a person replied', uid: 'person-rep' },
      },
    ]);
    const refused = errorOf(await mcp.call('delete_blocks', { uids: [parent] }));
    expect(refused.not_agent_created).toEqual([
      { id: parent, reason: '1 block(s) under it were not created by an agent' },
    ]);
    expect(stringOf('person-rep')).toBe('a person replied');
    expect(errorOf(await mcp.call('move_block', { uid: 'person-rep', parentUid: 'else-pg' })).code).toBe(
      'ACCESS_LEVEL',
    );
    const moved = jsonOf(await mcp.call('create_block', { parentUid: 'else-pg', markdown: 'agent only' }));
    const [alone] = (moved as { uids: string[] }).uids as [string];
    expect(jsonOf(await mcp.call('delete_block', { uid: alone }))).toMatchObject({ deleted: 'block' });
  });

  it('roam-mcp connect --access-level read-edit-own asks Roam for full and saves read-edit-own', async () => {
    const file = path.join(home, 'connected.json');
    const child = spawn(
      ...binCommand(['connect', '--config', file, '--graph', 'levels', '--access-level', 'read-edit-own']),
      { env: binEnv(home), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    emulator.clearRequests();
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(said).toMatch(/Asking Roam Desktop for full access to 'levels'/);
    const request = emulator.requests.find((r) => r.path === '/api/graphs/tokens/request');
    expect(request?.body).toMatchObject({ accessLevel: 'full' });
    const saved = JSON.parse(await readFile(file, 'utf8')) as { graphs: Array<Record<string, unknown>> };
    expect(saved.graphs[0]).toMatchObject({ name: 'levels', accessLevel: 'read-edit-own' });
  });

  it('refuses what cannot be limited to agents’ content: shortcuts and edit-scoped extension tools', async () => {
    expect(errorOf(await mcp.call('add_shortcut', { uid: 'else-pg' })).message).toMatch(
      /cannot be limited to what agents created/,
    );
    expect(errorOf(await mcp.call('call_extension_tool', { tool: 'ext/rewrite' })).code).toBe('ACCESS_LEVEL');
  });
});
