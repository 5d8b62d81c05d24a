/**
 * A configured graph that Roam Desktop does not have (a typo in ~/.roam-tools.json, a graph since
 * deleted), through the built bin: list_graphs says so instead of offering it as usable, and
 * select_graph answers GRAPH_NOT_FOUND in plain words, once, without asking Roam for a token again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../../emulator/index.ts';
import { errorOf, jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const WORK = newToken();
let world: StdioWorld;
let emulator: Emulator;
let mcp: McpHandle;

const tokenRequests = () => emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request');

beforeAll(async () => {
  world = await startStdioWorld({
    prefix: 'graph-not-in-roam-',
    emulator: { graphs: [{ name: 'work', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] }] },
    config: {
      text: JSON.stringify({
        version: 1,
        graphs: [
          { name: 'work', type: 'hosted', nickname: 'Work', token: WORK, accessLevel: 'full' },
          { name: 'no-such-graph', type: 'hosted', nickname: 'Typo' },
        ],
      }),
      mode: 0o600,
    },
  });
  ({ emulator, mcp } = world);
  emulator.autoDecide({ kind: 'approve' });
});

afterAll(async () => {
  await world?.close();
});

describe('a configured graph Roam Desktop does not have', () => {
  it('select_graph says so in plain words, and asks Roam for a token at most once', async () => {
    emulator.clearRequests();
    const first = errorOf(await mcp.call('select_graph', { graph: 'Typo' }));
    expect(first).toMatchObject({ code: 'GRAPH_NOT_FOUND', graph: 'Typo' });
    expect(first.message).toMatch(/^Roam Desktop has no hosted graph named 'no-such-graph'/);
    expect(first.message).toMatch(/corrects its "name" in \/.*\.roam-tools\.json/);
    expect(first.message).not.toMatch(/uid/i);
    const again = errorOf(await mcp.call('select_graph', { graph: 'Typo' }));
    expect(again).toMatchObject({ code: 'GRAPH_NOT_FOUND' });
    expect(tokenRequests().length).toBeLessThanOrEqual(1);
  });

  it('list_graphs does not offer it as usable, and says why', async () => {
    const list = jsonOf<{ items: Array<Record<string, unknown>> }>(await mcp.call('list_graphs', {}));
    expect(list.items.map((g) => g.nickname)).toEqual(['Work']);
    expect(list).toMatchObject({
      not_in_roam: [{ nickname: 'Typo', name: 'no-such-graph' }],
    });
  });
});
