// What the tray says about tokens stays true: a request's outcome goes once the state it describes
// is gone, failures are worded for the person who asked, and the chosen access level is shown
// against what Roam granted. The real core over real files, against the emulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphView, TokenRequestView } from '../../../../src-shared/ipc-contract.ts';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { nextEvent, startCore, tempDirs } from '../../helpers.ts';
import { writeToolsConfig } from '../../../harness/mcp-bin.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      { name: 'work' },
      { name: 'reader', userPermission: 'read-only' },
      { name: 'gone-soon' },
      { name: 'later' },
      { name: 'imported' },
    ],
  });
  ({ core } = startCore(dirs));
});

afterAll(async () => {
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

const finished = (id: string) => (v: TokenRequestView) => v.graphId === id && v.status !== 'waiting';
const listed = async (id: string): Promise<GraphView | undefined> =>
  (await core.handlers['graphs:list'](undefined)).find((g) => g.id === id);
const requests = async () => (await core.handlers['tokens:requests'](undefined)).map((r) => r.graphId);

/** Adds the graph and lets Roam answer its token request with `decision`; returns the outcome. */
async function addAndRequest(
  name: string,
  accessLevel: GraphView['accessLevel'],
  decision: Parameters<Emulator['decide']>[1] = { kind: 'approve' },
  options: { public?: boolean } = {},
): Promise<TokenRequestView> {
  const graph = await core.handlers['graphs:add']({ name, accessLevel, ...options });
  const done = nextEvent(core, 'tokens:request-changed', finished(graph.id));
  emulator.decide(name, decision);
  await core.handlers['tokens:request']({ id: graph.id });
  return done;
}

describe('token request outcomes stay true', () => {
  it('an approval goes once the access level it reported is changed, and stays for a rename', async () => {
    const approved = await addAndRequest('work', 'full');
    expect(approved).toMatchObject({ status: 'approved', grantedAccessLevel: 'full' });
    await core.handlers['graphs:update']({ id: 'hosted:work', nickname: 'Work' });
    expect(await requests()).toContain('hosted:work');

    const removed = nextEvent(core, 'tokens:request-removed', (r) => r.graphId === 'hosted:work');
    await core.handlers['graphs:update']({ id: 'hosted:work', accessLevel: 'read-only' });
    expect(await removed).toEqual({ graphId: 'hosted:work', startedAt: approved.startedAt });
    expect(await requests()).not.toContain('hosted:work');
  });

  it('an outcome goes with its graph, and does not come back when the graph is added again', async () => {
    await addAndRequest('gone-soon', 'read-append', { kind: 'reject' });
    const removed = nextEvent(core, 'tokens:request-removed', (r) => r.graphId === 'hosted:gone-soon');
    await core.handlers['graphs:remove']({ id: 'hosted:gone-soon' });
    await removed;
    await core.handlers['graphs:add']({ name: 'gone-soon' });
    expect(await requests()).not.toContain('hosted:gone-soon');
  });

  it('"Roam Desktop is not running" goes once Roam answers again, and is worded for a person', async () => {
    await core.handlers['graphs:add']({ name: 'later' });
    await emulator.stop();
    let failed: TokenRequestView;
    try {
      await core.handlers['status:get'](undefined);
      const done = nextEvent(core, 'tokens:request-changed', finished('hosted:later'));
      await core.handlers['tokens:request']({ id: 'hosted:later' });
      failed = await done;
      expect(failed).toMatchObject({ status: 'error', cause: 'roam-not-running', mayAskAgain: true });
      expect(failed.message).toBe(
        'Roam Desktop is not running, so nobody could approve the request. Open Roam Desktop, then press Try again.',
      );
    } finally {
      await emulator.start();
    }
    const removed = nextEvent(core, 'tokens:request-removed', (r) => r.graphId === 'hosted:later');
    expect((await core.handlers['status:get'](undefined)).roam.running).toBe(true);
    expect(await removed).toEqual({ graphId: 'hosted:later', startedAt: failed.startedAt });
  });

  it('a graph Roam does not have: not added; asked for as a public graph, says so in plain words, with no advice meant for agents', async () => {
    await expect(core.handlers['graphs:add']({ name: 'no-such-graph' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(
        /^Roam Desktop has no hosted graph named 'no-such-graph' \(it has: .*Nothing was added\.$/,
      ),
    });
    expect((await core.handlers['graphs:list'](undefined)).map((g) => g.name)).not.toContain('no-such-graph');
    // Public graphs are not in Roam's list, so they are added as typed: a typo shows at the request.
    const outcome = await addAndRequest('no-such-graph', 'read-only', undefined, { public: true });
    expect(outcome).toMatchObject({ status: 'error', cause: 'graph-not-found', mayAskAgain: true });
    expect(outcome.message).toMatch(
      /^Roam Desktop could not open the hosted graph 'no-such-graph': it does not exist/,
    );
    expect(outcome.message).toMatch(/remove this graph and add it again with the right name/);
    expect(outcome.message).not.toMatch(/uid|arguments|tool/i);
  });

  it('Never Allow cannot simply be asked again; a declined request can', async () => {
    expect(await addAndRequest('reader', 'read-only', { kind: 'never-allow' })).toMatchObject({
      status: 'blocked',
      mayAskAgain: false,
    });
    emulator.unblock('reader');
    await core.handlers['graphs:remove']({ id: 'hosted:reader' });
  });
});

describe('the chosen access level against the token’s grant', () => {
  it('a downgrade keeps the chosen level and shows the grant that does not cover it', async () => {
    const outcome = await addAndRequest('reader', 'full');
    expect(outcome).toMatchObject({ status: 'approved', grantedAccessLevel: 'read-only', downgraded: true });
    const graph = await listed('hosted:reader');
    expect(graph?.accessLevel).toBe('full');
    expect(graph?.token).toMatchObject({ grantedAccessLevel: 'read-only', covers: ['read-only'] });
  });

  it('a narrower chosen level is covered by the grant (roam-mcp enforces it)', async () => {
    await core.handlers['graphs:update']({ id: 'hosted:work', accessLevel: 'read-append' });
    const graph = await listed('hosted:work');
    expect(graph?.token.grantedAccessLevel).toBe('full');
    expect(graph?.token.covers).toContain('read-append');
  });

  it('a request asks Roam for the level the graph is set to now', async () => {
    await core.handlers['graphs:update']({ id: 'hosted:reader', accessLevel: 'read-append' });
    emulator.decide('reader', { kind: 'approve', accessLevel: 'read-only' });
    const done = nextEvent(core, 'tokens:request-changed', finished('hosted:reader'));
    await core.handlers['tokens:request']({ id: 'hosted:reader' });
    expect(await done).toMatchObject({ requestedAccessLevel: 'read-append' });
  });

  it('a token imported without its grant learns it from Roam (tokens/info)', async () => {
    const token = emulator.addToken('imported', 'hosted', 'read-append');
    const file = { graphs: [{ name: 'imported', nickname: 'Imported', accessLevel: 'full', token }] };
    await writeToolsConfig(dirs.home, { text: JSON.stringify(file) });
    await core.handlers['import:run'](undefined);
    expect((await listed('hosted:imported'))?.token.grantedAccessLevel).toBeUndefined();
    const learned = nextEvent(core, 'graphs:changed', (list) =>
      list.some((g) => g.id === 'hosted:imported' && g.token.grantedAccessLevel === 'read-append'),
    );
    await core.handlers['status:get'](undefined);
    const graph = (await learned).find((g) => g.id === 'hosted:imported');
    expect(graph?.accessLevel).toBe('full');
    expect(graph?.token.covers).not.toContain('full');
  });
});
