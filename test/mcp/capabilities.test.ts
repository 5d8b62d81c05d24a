/**
 * Capability-based exposure and per-graph resources: a tool that needs a Local API action is
 * listed only after the server probed the action on a graph (tools/list_changed tells the
 * client); resources are offered per configured graph and resolved by nickname.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import { newToken, type McpHandle } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';

const A = newToken();
const B = newToken();
let world: StdioWorld;
let emulator: Emulator;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      semanticSearch: true,
      graphs: [
        { name: 'alpha', content: 'demo', tokens: [{ token: A, accessLevel: 'full' }] },
        { name: 'beta', content: 'demo', tokens: [{ token: B, accessLevel: 'full' }] },
      ],
    },
    config: {
      text: JSON.stringify({
        graphs: [
          { name: 'alpha', nickname: 'Alpha', token: A },
          { name: 'beta', token: B },
        ],
      }),
    },
  });
  ({ emulator, mcp } = world);
});

afterAll(() => world?.close());

it('lists a tool that needs an action only once Roam offered it, and says so with tools/list_changed', async () => {
  const before = (await mcp.client.listTools()).tools.map((t) => t.name);
  expect(before).not.toContain('semantic_search');
  expect(mcp.transcript()).not.toContain('notifications/tools/list_changed');
  await mcp.call('get_page', { graph: 'Alpha', title: 'Project Apollo' });
  await expect.poll(() => mcp.transcript()).toContain('notifications/tools/list_changed');
  expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain('semantic_search');
  // Probed once per graph, not on every call.
  await mcp.call('get_page', { title: 'Project Apollo' });
  expect(emulator.requests.filter((r) => r.action === 'data.ai.semanticSearch')).toHaveLength(1);
});

it('offers each resource once per graph, by nickname, and names the graphs when one is unknown', async () => {
  const { resources } = await mcp.client.listResources();
  const uris = resources.map((r) => r.uri);
  expect(uris).toContain('roam://Alpha/stats');
  expect(uris).toContain('roam://beta/stats');
  const { resourceTemplates } = await mcp.client.listResourceTemplates();
  expect(resourceTemplates.every((t) => t.uriTemplate.startsWith('roam://{graph}/'))).toBe(true);
  const read = await mcp.client.readResource({ uri: 'roam://alpha/stats' });
  expect(read.contents[0]?.uri).toBe('roam://alpha/stats');
  expect(emulator.requests.at(-1)?.graph).toBe('alpha');
  await expect(mcp.client.readResource({ uri: 'roam://gamma/stats' })).rejects.toThrow(/gamma.*Alpha, beta/);
});
