/**
 * Several things at once: MCP children starting while the config file is being rewritten (each
 * sees a whole config, old or new), concurrent token requests for one graph (one dialog in Roam,
 * REQUEST_IN_PROGRESS handled, one stored token) from one bin, from two bins, and from the tray.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { createFileKeySecretBox } from '../../src-main/core/store/file-key-secret-box.ts';
import { createTrayCore } from '../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  BIN,
  errorCode,
  makeToken,
  startMcp,
  scratchHome,
  allTextOf,
  toolsConfigPath,
  writeToolsConfig,
} from '../harness/mcp-bin.ts';

const TOKEN = makeToken('CONCURRENT');
const GRAPH = 'shared-graph';

let home: { home: string; cleanup(): Promise<void> };
let emulator: Emulator;
const configPath = () => toolsConfigPath(home.home);

beforeEach(async () => {
  home = await scratchHome('roam-concurrency-');
  emulator = await startEmulator({
    home: home.home,
    port: 0,
    tokenRequestTimeoutMs: 20_000,
    graphs: [{ name: GRAPH, content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
});

afterEach(async () => {
  await emulator?.close();
  await home?.cleanup();
});

async function waitUntil(probe: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The graph in the config with no token, and two bins started on it at once. */
async function twoBinsOnOneGraph() {
  await writeToolsConfig(home.home, [{ name: GRAPH, nickname: 'Shared' }]);
  return Promise.all([startMcp({ home: home.home }), startMcp({ home: home.home })]);
}

/** The config file holds the one graph, now with the token Roam granted. */
async function expectOneTokenSaved(): Promise<void> {
  const saved = JSON.parse(await readFile(configPath(), 'utf8')) as { graphs: Array<{ token?: string }> };
  expect(saved.graphs).toHaveLength(1);
  expect(saved.graphs[0]?.token).toMatch(/^roam-graph-local-token-/);
}

describe('concurrency', () => {
  it(
    'children starting while the config is rewritten each see a whole config',
    { timeout: 90_000 },
    async () => {
      // Two valid configs that differ in size and nickname, so a torn mix would not parse.
      const configs = ['Alpha', 'Beta'].map((nickname, i) =>
        JSON.stringify(
          {
            version: 1,
            graphs: [
              {
                name: GRAPH,
                type: 'hosted',
                token: TOKEN,
                nickname,
                description: 'd'.repeat(1 + i * 60_000),
              },
            ],
          },
          null,
          2,
        ),
      );
      await writeFileAtomic(configPath(), configs[0] as string);
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        while (writing) {
          await writeFileAtomic(configPath(), configs[writes % 2] as string);
          writes += 1;
        }
      })();
      const seen: string[] = [];
      try {
        for (let wave = 0; wave < 2; wave++) {
          const children = await Promise.all([1, 2, 3].map(() => startMcp({ home: home.home })));
          try {
            for (const child of children) {
              const listed = await child.call('list_graphs', {});
              expect(errorCode(listed)).toBeUndefined();
              const nickname = (listed.structuredContent as { items: Array<{ nickname: string }> }).items[0]
                ?.nickname;
              expect(['Alpha', 'Beta']).toContain(nickname);
              seen.push(nickname as string);
              const page = await child.call('get_page', { title: 'Project Apollo' });
              expect(errorCode(page)).toBeUndefined();
            }
          } finally {
            await Promise.all(children.map((c) => c.close()));
          }
        }
      } finally {
        writing = false;
        await writer;
      }
      expect(seen).toHaveLength(6);
      expect(writes).toBeGreaterThan(6);
    },
  );

  it(
    'one bin, concurrent calls needing a token: one dialog in Roam, one stored token',
    { timeout: 60_000 },
    async () => {
      await writeToolsConfig(home.home, [{ name: GRAPH, nickname: 'Shared' }]);
      const bin = await startMcp({ home: home.home });
      try {
        const progress: string[][] = [[], [], []];
        const calls = [
          bin.call('select_graph', { graph: 'Shared' }, { progress: progress[0] }),
          bin.call('get_page', { title: 'Project Apollo' }, { progress: progress[1] }),
          bin.call('search', { query: 'Apollo' }, { progress: progress[2] }),
        ];
        // Every call has either asked Roam or joined the open request, and each says which: one
        // asks, the others wait for its dialog.
        const asked = (messages: string[]) => messages.some((m) => m.startsWith('Asking'));
        const joined = (messages: string[]) => messages.some((m) => m.startsWith('Waiting for'));
        await waitUntil(
          () => progress.every((m) => asked(m) || joined(m)) && emulator.pendingTokenRequests().length > 0,
          'every call to ask or join, and the dialog in Roam',
        );
        expect(progress.filter(asked)).toHaveLength(1);
        expect(emulator.pendingTokenRequests()).toHaveLength(1);
        emulator.decide(GRAPH, { kind: 'approve' });
        const results = await Promise.all(calls);
        for (const result of results) expect(errorCode(result)).toBeUndefined();
      } finally {
        await bin.close();
      }
      const requests = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request');
      expect(requests).toHaveLength(1);
      await expectOneTokenSaved();
    },
  );

  it(
    'two bins asking at once: one dialog, the second gets REQUEST_IN_PROGRESS with guidance',
    { timeout: 60_000 },
    async () => {
      const [first, second] = await twoBinsOnOneGraph();
      try {
        const firstCall = first!.call('select_graph', { graph: 'Shared' });
        await waitUntil(() => emulator.pendingTokenRequests().length === 1, 'the first token request');
        const secondResult = await second!.call('select_graph', { graph: 'Shared' });
        expect(errorCode(secondResult)).toBe('REQUEST_IN_PROGRESS');
        expect(allTextOf(secondResult)).toMatch(/already waiting|Answer that dialog/i);
        expect(allTextOf(secondResult)).toMatch(/"retryable":true/);
        expect(emulator.pendingTokenRequests()).toHaveLength(1);
        emulator.decide(GRAPH, { kind: 'approve' });
        expect(errorCode(await firstCall)).toBeUndefined();
      } finally {
        await Promise.all([first?.close(), second?.close()]);
      }
      await expectOneTokenSaved();
    },
  );

  // Regression: a second bin that got REQUEST_IN_PROGRESS used to open a second dialog on retry
  // although the first bin had stored a token; ensureToken now re-reads the config source first.
  it(
    'two bins: the retry of the second reuses the token the first stored (no second dialog)',
    { timeout: 60_000 },
    async () => {
      const [first, second] = await twoBinsOnOneGraph();
      try {
        const firstCall = first!.call('select_graph', { graph: 'Shared' });
        await waitUntil(() => emulator.pendingTokenRequests().length === 1, 'the first token request');
        expect(errorCode(await second!.call('select_graph', { graph: 'Shared' }))).toBe(
          'REQUEST_IN_PROGRESS',
        );
        emulator.decide(GRAPH, { kind: 'approve' });
        expect(errorCode(await firstCall)).toBeUndefined();
        // Without an answer in Roam, a second dialog would leave this call waiting: answer "no".
        emulator.autoDecide({ kind: 'reject' }, 0);
        const retry = await second!.call('select_graph', { graph: 'Shared' });
        expect(errorCode(retry)).toBeUndefined();
      } finally {
        await Promise.all([first?.close(), second?.close()]);
      }
      // The second bin's first attempt reached Roam and was refused with 409; only one opened a dialog.
      const dialogs = emulator.requests.filter(
        (r) => r.path === '/api/graphs/tokens/request' && r.status !== 409,
      );
      expect(dialogs).toHaveLength(1);
    },
  );

  // Regression: token write-back was an unlocked read-modify-write, and bins storing tokens for
  // different graphs at once lost each other's (1 of 2 kept in 3 runs out of 5). It now runs
  // under a lock beside the file. Six rounds of three bins storing at once, the same three bins
  // each round, each on a graph of its own it has no token for yet. Stops at the first loss.
  it(
    'bins obtaining tokens for different graphs at once all keep their token in the file',
    { timeout: 90_000 },
    async () => {
      const rounds = Array.from({ length: 6 }, (_, round) =>
        ['x', 'y', 'z'].map((name) => `${name}${round}`),
      );
      const names = rounds.flat();
      await emulator.close();
      emulator = await startEmulator({
        home: home.home,
        port: 0,
        graphs: names.map((name) => ({ name, content: 'empty' as const })),
      });
      // A large file (8 MB of description) widens the read-modify-write window of each writer.
      const big = names.map((name) => ({ name, description: 'd'.repeat(8_000_000 / names.length) }));
      await writeToolsConfig(home.home, big);
      const bins = await Promise.all([0, 1, 2].map(() => startMcp({ home: home.home })));
      try {
        for (const [round, graphs] of rounds.entries()) {
          const calls = bins.map((bin, i) => bin.call('select_graph', { graph: graphs[i] as string }));
          await waitUntil(
            () => emulator.pendingTokenRequests().length === graphs.length,
            'three token requests',
          );
          for (const name of graphs) emulator.decide(name, { kind: 'approve' });
          for (const result of await Promise.all(calls)) expect(errorCode(result)).toBeUndefined();
          const saved = JSON.parse(await readFile(configPath(), 'utf8')) as {
            graphs: Array<{ token?: string }>;
          };
          expect(saved.graphs.filter((g) => g.token).length).toBe(3 * (round + 1));
        }
      } finally {
        await Promise.all(bins.map((bin) => bin.close()));
      }
    },
  );

  it(
    'the tray: concurrent tokens:request for one graph open one dialog and store one token',
    { timeout: 60_000 },
    async () => {
      const storeDir = path.join(home.home, 'store');
      const core = createTrayCore({
        home: home.home,
        storeDir,
        secretBox: createFileKeySecretBox(storeDir),
        mcpServerPath: BIN,
        statusPollMs: 0,
      });
      try {
        const added = await core.handlers['graphs:add']({ name: GRAPH, nickname: 'Shared' });
        const outcomes = await Promise.allSettled([
          core.handlers['tokens:request']({ id: added.id, accessLevel: 'full' }),
          core.handlers['tokens:request']({ id: added.id, accessLevel: 'full' }),
          core.handlers['tokens:request']({ id: added.id, accessLevel: 'full' }),
        ]);
        // start() sends its request before it returns, so every request there will be is on its way;
        // the count of requests Roam received, checked once all is settled, proves there was one.
        await waitUntil(() => emulator.pendingTokenRequests().length > 0, 'the tray token request');
        expect(emulator.pendingTokenRequests()).toHaveLength(1);
        // Every caller got an answer: the same pending request, or a clear refusal.
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected')
            expect(String(outcome.reason)).toMatch(/already|progress|waiting/i);
        }
        emulator.decide(GRAPH, { kind: 'approve' });
        await waitUntil(() => false === emulator.pendingTokenRequests().length > 0, 'the answer');
        let graphs = await core.handlers['graphs:list'](undefined);
        const deadline = Date.now() + 10_000;
        while (graphs[0]?.token.state !== 'ok' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          graphs = await core.handlers['graphs:list'](undefined);
        }
        expect(graphs).toHaveLength(1);
        expect(graphs[0]?.token.state).toBe('ok');
      } finally {
        await core.close();
      }
      expect(emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request')).toHaveLength(1);
    },
  );
});
