/**
 * No token anywhere observable. Every token in play (configured, read-only, revoked, obtained by
 * exchange through the bin, obtained by the tray) is searched for in: MCP responses and stderr of
 * the bin, the tray core's handler results and event payloads, the preview server's HTTP answers
 * and SSE stream, and every client config file the installers wrote. Token files are 0600.
 */
import { lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventChannels, type EventChannel } from '../../src-shared/constants.ts';
import { startPreview, type Preview } from '../../src-main/preview/server.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  errorCode,
  makeToken,
  startMcp,
  scratchHome,
  toolsConfig,
  type McpHandle,
  toolsConfigPath,
} from '../harness/mcp-bin.ts';

const FULL = makeToken('SECRETFULLxxxxxxxxxxxxxxxxx1');
const READ = makeToken('SECRETREADxxxxxxxxxxxxxxxxx2');
const REVOKED = makeToken('SECRETREVOKEDxxxxxxxxxxxxx3');
const TOKEN_SHAPE = /roam-graph-(?:local-)?token-[A-Za-z0-9_-]{8,}/;

let home: { home: string; cleanup(): Promise<void> };
let emulator: Emulator;
/** Every token that existed during the test, including ones minted by exchanges. */
const tokens = new Set<string>([FULL, READ, REVOKED]);
/** Everything observed, by where it was observed. */
const observed: Array<{ where: string; text: string }> = [];
const observe = (where: string, value: unknown) =>
  observed.push({
    where,
    text: typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)),
  });

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

beforeAll(async () => {
  home = await scratchHome('roam-secrets-');
  emulator = await startEmulator({
    home: home.home,
    port: 0,
    tokenRequestTimeoutMs: 5000,
    graphs: [
      { name: 'work', content: 'demo', tokens: [{ token: FULL, accessLevel: 'full' }] },
      { name: 'reading', content: 'demo', tokens: [{ token: READ, accessLevel: 'read-only' }] },
      { name: 'gone', content: 'demo', tokens: [{ token: REVOKED, accessLevel: 'full' }] },
      { name: 'fresh', content: 'demo' },
      { name: 'tray-graph', content: 'demo' },
    ],
  });
  emulator.revokeToken(REVOKED);
  emulator.autoDecide({ kind: 'approve' });
});

afterAll(async () => {
  await emulator?.close();
  await home?.cleanup();
});

describe('token secrecy', () => {
  it(
    'the bin: responses and stderr across success, scope, auth and exchange paths carry no token',
    { timeout: 60_000 },
    async () => {
      const configPath = toolsConfigPath(home.home);
      await writeFile(
        configPath,
        toolsConfig([
          { name: 'work', token: FULL, nickname: 'Work' },
          { name: 'reading', token: READ, nickname: 'Reading' },
          { name: 'gone', token: REVOKED, nickname: 'Gone' },
          { name: 'fresh', nickname: 'Fresh' },
        ]),
        { mode: 0o600 },
      );
      const bin: McpHandle = await startMcp({ home: home.home });
      try {
        const calls: Array<[string, Record<string, unknown>]> = [
          ['list_graphs', {}],
          ['current_graph', {}],
          ['select_graph', { graph: 'Work' }],
          ['current_graph', {}],
          ['get_page', { title: 'Project Apollo' }],
          ['search', { query: 'Apollo' }],
          ['datalog_query', { query: '[:find ?t :where [?p :node/title ?t]]' }],
          ['select_graph', { graph: 'Reading' }],
          ['create_block', { graph: 'Reading', pageTitle: 'Nope', markdown: 'no' }],
          ['get_page', { graph: 'Gone', title: 'Project Apollo' }],
          ['select_graph', { graph: 'Gone' }],
          ['select_graph', { graph: 'Fresh' }],
          ['get_page', { graph: 'Fresh', title: 'Project Apollo' }],
          ['select_graph', { graph: 'nope' }],
        ];
        const codes: Array<string | undefined> = [];
        for (const [name, args] of calls) {
          const result = await bin.call(name, args);
          codes.push(errorCode(result));
          observe(`bin ${name}`, result);
        }
        // The paths that could leak were really taken.
        expect(codes).toContain('INSUFFICIENT_SCOPE');
        expect(codes).toContain('AUTH_FAILED');
        expect(codes[11]).toBeUndefined(); // Fresh: token obtained by exchange
        const { resources } = await bin.client.listResources();
        observe('bin resources/list', resources);
        for (const resource of resources.slice(0, 4)) {
          observe(
            `bin read ${resource.uri}`,
            await bin.client.readResource({ uri: resource.uri }).catch(String),
          );
        }
        observe('bin tools/list', await bin.client.listTools());
      } finally {
        await bin.close();
        observe('bin stderr', bin.stderr());
      }
      // The exchanged tokens (Fresh, and Gone's replacement) went to the config file, 0600.
      const saved = JSON.parse(await readFile(configPath, 'utf8')) as {
        graphs: Array<{ name: string; token?: string }>;
      };
      const fresh = saved.graphs.find((g) => g.name === 'fresh')?.token;
      expect(fresh).toMatch(/^roam-graph-local-token-/);
      for (const g of saved.graphs) if (g.token) tokens.add(g.token);
      expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    },
  );

  it(
    'the tray core and the preview server: handler results, events, HTTP and SSE carry no token',
    { timeout: 60_000 },
    async () => {
      // An importable ~/.roam-tools.json with tokens is already there from the test above.
      const preview: Preview = await startPreview({ home: home.home, emulator, statusPollMs: 0 });
      const events: Array<{ event: EventChannel; payload: unknown }> = [];
      const offs = eventChannels.map((event) =>
        preview.core.on(event, (payload) => events.push({ event, payload })),
      );
      const sse = new AbortController();
      let sseText = '';
      const sseDone = fetch(`${preview.url}events?key=${preview.key}`, { signal: sse.signal })
        .then(async (response) => {
          const reader = response.body!.getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            sseText += Buffer.from(value).toString('utf8');
          }
        })
        .catch(() => {});
      const ipc = async (channel: string, body?: unknown) => {
        const response = await fetch(`${preview.url}ipc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${preview.key}` },
          body: body === undefined ? '' : JSON.stringify(body),
        });
        const text = await response.text();
        observe(`preview ${channel} ${response.status}`, text);
        return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined };
      };
      try {
        await ipc('graphs:add', { name: 'tray-graph', nickname: 'Tray' });
        const requested = await ipc('tokens:request', { id: 'hosted:tray-graph', accessLevel: 'full' });
        expect(requested.status).toBe(200);
        // Wait (bounded) for the exchange to finish: the graph shows a stored token.
        const deadline = Date.now() + 10_000;
        for (;;) {
          const list = await ipc('graphs:list');
          const graph = (list.json as Array<{ id: string; token: { state: string } }>).find(
            (g) => g.id === 'hosted:tray-graph',
          );
          if (graph?.token.state === 'ok') break;
          if (Date.now() > deadline) throw new Error(`no token stored: ${JSON.stringify(graph)}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await ipc('import:check');
        await ipc('import:run');
        for (const channel of [
          'graphs:list',
          'graphs:available',
          'tokens:requests',
          'blocked:list',
          'status:get',
          'settings:get',
          'clients:list',
        ]) {
          await ipc(channel);
        }
        // The clients "are installed" (their config folders exist), so the installers really write.
        for (const dir of ['.config/Claude', '.cursor', '.config/Code/User']) {
          await mkdir(path.join(home.home, dir), { recursive: true });
        }
        for (const id of ['claude-desktop', 'cursor', 'vscode']) {
          await ipc('clients:preview', { id, action: 'install' });
          await ipc('clients:install', { id });
        }
        await ipc('graphs:update', { id: 'hosted:tray-graph', nickname: 'Tray2' });
        await ipc('tokens:request', { id: 'hosted:nope' });
        await ipc('graphs:add', { name: 'x', token: FULL });
        // Direct handler results too (the shell's path, no HTTP).
        for (const channel of ['graphs:list', 'status:get', 'clients:list', 'tokens:requests'] as const) {
          observe(`core ${channel}`, await preview.core.handlers[channel](undefined));
        }
      } finally {
        sse.abort();
        await sseDone;
        for (const off of offs) off();
        await preview.close();
      }
      observe('core events', events);
      observe('preview SSE', sseText);
      expect(events.length).toBeGreaterThan(0);
      // The tray's store holds tokens encrypted only; find the minted ones through the emulator log.
      for (const request of emulator.requests) {
        const auth = request.headers.authorization;
        if (auth?.startsWith('Bearer ')) tokens.add(auth.slice('Bearer '.length));
      }
      const storeFiles = await filesUnder(path.join(home.home, '.roam-companion'));
      expect(storeFiles.length).toBeGreaterThan(0);
      for (const file of storeFiles) {
        observe(`store file ${file}`, await readFile(file, 'latin1'));
        if (/\.json$/.test(file)) expect((await stat(file)).mode & 0o077).toBe(0);
      }
    },
  );

  it('installer-written client configs contain no token', async () => {
    const files = (await filesUnder(home.home)).filter(
      (file) =>
        !file.endsWith('.roam-tools.json') &&
        !file.includes('.roam-companion') &&
        !file.includes('.roam-tools.json.'),
    );
    const clientConfigs = files.filter((f) => /claude|cursor|Code|mcp/i.test(f));
    expect(clientConfigs.length).toBeGreaterThan(0);
    for (const file of files) observe(`file ${path.relative(home.home, file)}`, await readFile(file, 'utf8'));
  });

  it('nothing observed contains any token', () => {
    expect(tokens.size).toBeGreaterThanOrEqual(5);
    expect(observed.length).toBeGreaterThan(30);
    const leaks: string[] = [];
    for (const { where, text } of observed) {
      for (const token of tokens)
        if (text.includes(token)) leaks.push(`${where} contains ${token.slice(0, 26)}…`);
      if (!where.startsWith('store file') && TOKEN_SHAPE.test(text))
        leaks.push(`${where}: ${TOKEN_SHAPE.exec(text)?.[0].slice(0, 26)}…`);
    }
    expect(leaks).toEqual([]);
  });

  // Regression: the atomic rename used to replace a symlinked ~/.roam-tools.json with a regular
  // file, so the dotfile it pointed to never got the token; writes now go to the link's target.
  it('a token written back through a symlinked config keeps the link (the dotfile is updated)', async () => {
    const local = await scratchHome('roam-symlink-');
    const dots = path.join(local.home, 'dotfiles');
    try {
      await mkdir(dots);
      const real = path.join(dots, 'roam-tools.json');
      await writeFile(real, toolsConfig([{ name: 'fresh', nickname: 'Fresh' }]), { mode: 0o600 });
      await symlink(real, toolsConfigPath(local.home));
      await writeFile(path.join(local.home, '.roam-local-api.json'), JSON.stringify({ port: emulator.port }));
      const bin = await startMcp({ home: local.home });
      try {
        expect(errorCode(await bin.call('select_graph', { graph: 'Fresh' }))).toBeUndefined();
      } finally {
        await bin.close();
      }
      const link = await lstat(toolsConfigPath(local.home));
      const realText = await readFile(real, 'utf8');
      expect({ symlink: link.isSymbolicLink(), dotfileHasToken: /local-token-/.test(realText) }).toEqual({
        symlink: true,
        dotfileHasToken: true,
      });
    } finally {
      await local.cleanup();
    }
  });
});
