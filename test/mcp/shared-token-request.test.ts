/**
 * Two calls waiting on one token request (Roam shows one dialog per graph): one caller's
 * cancellation leaves the other waiting, and Roam's dialog is withdrawn only when every waiting
 * caller has gone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import { jsonOf, notesOf, textOf, type McpHandle } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';

let world: StdioWorld;
let emulator: Emulator;
let mcp: McpHandle;

const pendingGraphs = () => emulator.pendingTokenRequests().map((p) => p.graph);

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'shared', content: 'demo' },
        { name: 'abandoned', content: 'demo' },
      ],
    },
    config: { text: JSON.stringify({ graphs: [{ name: 'shared' }, { name: 'abandoned' }] }), mode: 0o600 },
  });
  ({ emulator, mcp } = world);
});

afterAll(() => world?.close());

/** Starts a read that needs a token; resolves once the server says it waits on Roam's dialog. */
async function waitingCall(graph: string, joined: boolean) {
  const controller = new AbortController();
  const progress: string[] = [];
  const result = mcp
    .call('get_page', { graph, title: 'Project Apollo' }, { signal: controller.signal, progress })
    .catch((error: Error) => error);
  const expected = joined ? /already open in Roam Desktop/ : /Asking Roam Desktop/;
  await expect.poll(() => progress.join(' ')).toMatch(expected);
  return { controller, result };
}

/** A round trip: the server reads stdin in order, so it has handled every earlier cancellation. */
const roundTrip = async () => jsonOf(await mcp.call('list_graphs'));

it("one caller's cancellation does not cancel the request another caller still waits on", async () => {
  const first = await waitingCall('shared', false);
  const second = await waitingCall('shared', true);
  expect(pendingGraphs()).toEqual(['shared']);
  first.controller.abort();
  expect(await first.result).toBeInstanceOf(Error);
  await roundTrip();
  emulator.decide('shared', { kind: 'approve', accessLevel: 'read-only' });
  const answer = await second.result;
  if (answer instanceof Error) throw answer;
  expect(textOf(answer)).toMatch(/^# Project Apollo/);
  expect(notesOf(answer).join(' ')).toMatch(/Roam granted a read-only token for graph 'shared'/);
  expect(emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request')).toHaveLength(1);
});

it('the dialog is withdrawn once every waiting caller has gone', async () => {
  const first = await waitingCall('abandoned', false);
  const second = await waitingCall('abandoned', true);
  first.controller.abort();
  await roundTrip();
  expect(pendingGraphs()).toContain('abandoned');
  second.controller.abort();
  expect(await second.result).toBeInstanceOf(Error);
  await expect.poll(pendingGraphs).not.toContain('abandoned');
});
