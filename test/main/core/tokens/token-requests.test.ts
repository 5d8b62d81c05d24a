import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenRequestView } from '../../../../src-shared/ipc-contract.ts';
import { ACCESS_LEVELS } from '../../../../src-shared/constants.ts';
import { LocalApiClient } from '../../../../src-shared/local-api/index.ts';
import { createFileKeySecretBox } from '../../../../src-main/core/store/file-key-secret-box.ts';
import { TrayStore, createConfBackend } from '../../../../src-main/core/store/tray-store.ts';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { TOKEN_PATTERN, nextEvent, startCore, tempDirs, waitFor } from '../../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let events: ReturnType<typeof startCore>['events'];
let store: TrayStore;
const results: unknown[] = [];

async function call<T>(promise: Promise<T>): Promise<T> {
  const value = await promise;
  results.push(value);
  return value;
}

const settled = (id: string) => (v: TokenRequestView) => v.graphId === id && v.status !== 'waiting';

async function addGraph(name: string, type: 'hosted' | 'offline' = 'hosted') {
  return call(core.handlers['graphs:add']({ name, type }));
}

function tokenRequestsTo(graph: string): number {
  return emulator.requests.filter(
    (r) => r.path === '/api/graphs/tokens/request' && (r.body as { graph?: string })?.graph === graph,
  ).length;
}

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    tokenRequestTimeoutMs: 1500,
    graphs: [
      { name: 'approve-me' },
      { name: 'reader-graph', userPermission: 'read-only' },
      { name: 'reject-me' },
      { name: 'never-me' },
      { name: 'slow-me' },
      { name: 'busy-me' },
      { name: 'cancel-me' },
      { name: 'revoke-me' },
      { name: 'local-notes', type: 'offline' },
      { name: 'help', public: true },
    ],
  });
  ({ core, events } = startCore(dirs));
  store = new TrayStore(
    createConfBackend(dirs.storeDir),
    dirs.storeDir,
    createFileKeySecretBox(dirs.storeDir),
  );
});

afterAll(async () => {
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('token requests against the emulator', () => {
  it('a public graph Roam does not list is added by name, read-only, and its token asked read-only', async () => {
    expect((await call(core.handlers['graphs:available'](undefined))).map((g) => g.name)).not.toContain(
      'help',
    );
    const graph = await call(
      core.handlers['graphs:add']({
        name: 'help',
        type: 'hosted',
        nickname: 'Roam help',
        accessLevel: 'read-only',
        public: true,
      }),
    );
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('help', { kind: 'approve' });
    expect(await done).toMatchObject({ status: 'approved', grantedAccessLevel: 'read-only' });
    const asked = emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request').at(-1);
    expect(asked?.body).toMatchObject({ graph: 'help', accessLevel: 'read-only' });
  });

  it('approve: stores the token encrypted, shows it as ok with its last 4 characters', async () => {
    const graph = await addGraph('approve-me');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    const waiting = await call(core.handlers['tokens:request']({ id: graph.id, accessLevel: 'full' }));
    expect(waiting.status).toBe('waiting');
    expect(waiting.expiresAt - waiting.startedAt).toBe(5 * 60_000);
    emulator.decide('approve-me', { kind: 'approve' });
    const view = await done;
    expect(view).toMatchObject({ status: 'approved', grantedAccessLevel: 'full', downgraded: false });

    const stored = store.read().graphs.find((g) => g.name === 'approve-me')!;
    const token = (await store.openToken(stored))!;
    // The stored token is the real one: Roam accepts it.
    await expect(
      new LocalApiClient({ home: dirs.home }).call(
        { name: 'approve-me', type: 'hosted', token },
        'graph.name',
      ),
    ).resolves.toBeDefined();
    const [listed] = (await call(core.handlers['graphs:list'](undefined))).filter((g) => g.id === graph.id);
    expect(listed?.token).toEqual({
      state: 'ok',
      last4: token.slice(-4),
      grantedAccessLevel: 'full',
      covers: [...ACCESS_LEVELS],
    });
    // Encrypted at rest: neither the token nor its secret part is in the store file.
    const file = await readFile(store.path, 'utf8');
    expect(file).not.toContain(token);
    expect(file).not.toContain(token.slice('roam-graph-local-token-'.length));
    expect(file).not.toMatch(TOKEN_PATTERN);
  });

  it('downgrade: flags a grant lower than requested and records the granted level', async () => {
    const graph = await addGraph('reader-graph');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id, accessLevel: 'full' }));
    emulator.decide('reader-graph', { kind: 'approve', accessLevel: 'read-only' });
    expect(await done).toMatchObject({
      status: 'approved',
      grantedAccessLevel: 'read-only',
      downgraded: true,
    });
    // The level the user chose holds; the view shows that the token allows less, so a new one is needed.
    const listed = (await core.handlers['graphs:list'](undefined)).find((g) => g.id === graph.id);
    expect(listed?.accessLevel).toBe('read-append');
    expect(listed?.token).toMatchObject({
      state: 'ok',
      grantedAccessLevel: 'read-only',
      covers: ['read-only'],
    });
  });

  it('reject: reports it, and a retry is sent and can succeed', async () => {
    const graph = await addGraph('reject-me');
    let done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('reject-me', { kind: 'reject' });
    expect((await done).status).toBe('rejected');

    done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('reject-me', { kind: 'approve' });
    expect((await done).status).toBe('approved');
    expect(tokenRequestsTo('reject-me')).toBe(2);
  });

  it('never allow: blocked list with how to unblock, no further request until retry', async () => {
    const graph = await addGraph('never-me');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    const blockedEvent = nextEvent(core, 'blocked:changed', (list) =>
      list.some((b) => b.graphId === graph.id),
    );
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('never-me', { kind: 'never-allow' });
    expect((await done).status).toBe('blocked');
    await blockedEvent;
    const blocked = await call(core.handlers['blocked:list'](undefined));
    expect(blocked.find((b) => b.graphId === graph.id)?.howToUnblock).toContain(
      'Settings > Graph > Local API Tokens',
    );
    expect((await core.handlers['graphs:list'](undefined)).find((g) => g.id === graph.id)?.token.state).toBe(
      'blocked',
    );

    const sentBefore = tokenRequestsTo('never-me');
    const again = await call(core.handlers['tokens:request']({ id: graph.id }));
    expect(again.status).toBe('blocked');
    expect(tokenRequestsTo('never-me')).toBe(sentBefore);

    emulator.unblock('never-me');
    const retried = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    const waiting = await call(core.handlers['blocked:retry']({ id: graph.id }));
    expect(waiting.status).toBe('waiting');
    emulator.decide('never-me', { kind: 'approve' });
    expect((await retried).status).toBe('approved');
    expect(await core.handlers['blocked:list'](undefined)).toEqual([]);
  });

  it('timeout: nobody answers within Roam’s window', async () => {
    const graph = await addGraph('slow-me');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('slow-me', { kind: 'no-answer' });
    const view = await done;
    expect(view.status).toBe('timeout');
    expect(view.message).toMatch(/ask again/i);
  });

  it('409: another request for the graph is already waiting in Roam', async () => {
    const graph = await addGraph('busy-me');
    const other = new AbortController();
    const otherRequest = new LocalApiClient({ home: dirs.home })
      .requestToken(
        { graph: 'busy-me', graphType: 'hosted', description: 'another app', accessLevel: 'read-only' },
        { signal: other.signal },
      )
      .catch(() => undefined);
    await waitFor(() =>
      emulator.pendingTokenRequests().some((p) => p.graph === 'busy-me') ? true : undefined,
    );
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    const view = await done;
    expect(view.status).toBe('in-progress');
    expect(view.message).toMatch(/already/);
    other.abort();
    await otherRequest;
  });

  it('cancel: aborts the HTTP request, Roam sees the disconnect', async () => {
    const graph = await addGraph('cancel-me');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    await waitFor(() =>
      emulator.pendingTokenRequests().some((p) => p.graph === 'cancel-me') ? true : undefined,
    );
    await call(core.handlers['tokens:cancel']({ id: graph.id }));
    expect((await done).status).toBe('cancelled');
    // A second click after the request ended changes nothing.
    await expect(core.handlers['tokens:cancel']({ id: graph.id })).resolves.toBeUndefined();
    await waitFor(() =>
      emulator.pendingTokenRequests().some((p) => p.graph === 'cancel-me') ? undefined : true,
    );
    expect((await core.handlers['graphs:list'](undefined)).find((g) => g.id === graph.id)?.token.state).toBe(
      'missing',
    );
  });

  it('revoked: a token Roam no longer accepts shows as revoked', async () => {
    const graph = await addGraph('revoke-me');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('revoke-me', { kind: 'approve' });
    await done;
    const stored = store.read().graphs.find((g) => g.name === 'revoke-me')!;
    emulator.revokeToken((await store.openToken(stored))!);
    const revoked = nextEvent(core, 'graphs:changed', (list) =>
      list.some((g) => g.id === graph.id && g.token.state === 'revoked'),
    );
    await call(core.handlers['status:get'](undefined));
    await revoked;
    const others = (await core.handlers['graphs:list'](undefined)).filter(
      (g) => g.id === 'hosted:approve-me',
    );
    expect(others[0]?.token.state).toBe('ok');
  });

  it('offline graphs are requested with their type', async () => {
    const graph = await addGraph('local-notes', 'offline');
    const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
    await call(core.handlers['tokens:request']({ id: graph.id }));
    emulator.decide('local-notes', { kind: 'approve' }, 'offline');
    expect((await done).status).toBe('approved');
  });

  it('Roam not running: clear errors, status says so', async () => {
    await emulator.stop();
    try {
      const status = await call(core.handlers['status:get'](undefined));
      expect(status.roam.running).toBe(false);
      await expect(core.handlers['graphs:available'](undefined)).rejects.toMatchObject({
        code: 'ROAM_NOT_RUNNING',
        message: expect.stringMatching(/Open Roam Desktop/),
      });
      const graph = (await core.handlers['graphs:list'](undefined)).find((g) => g.name === 'slow-me')!;
      const done = nextEvent(core, 'tokens:request-changed', settled(graph.id));
      await call(core.handlers['tokens:request']({ id: graph.id }));
      const view = await done;
      expect(view.status).toBe('error');
      expect(view.message).toMatch(/not running/);
    } finally {
      await emulator.start();
    }
    const status = await call(core.handlers['status:get'](undefined));
    expect(status.roam).toMatchObject({ running: true, port: emulator.port });
  });

  it('no token ever appears in a handler result or an event payload', async () => {
    const available = await call(core.handlers['graphs:available'](undefined));
    expect(available.map((g) => g.name)).toContain('approve-me');
    await call(core.handlers['tokens:requests'](undefined));
    const serialized = JSON.stringify({ results, events });
    expect(events.length).toBeGreaterThan(10);
    const tokens = await Promise.all(
      store
        .read()
        .graphs.filter((g) => g.token)
        .map((g) => store.openToken(g)),
    );
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    for (const token of tokens) expect(serialized).not.toContain(token!.slice(-12));
    expect(serialized).not.toMatch(TOKEN_PATTERN);
  });
});
