/**
 * get_graph_guidelines, the official server's name for orientation, through the built bin: the
 * same result and the same graph ticket as select_graph, `graph` optional as the official tool has it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const WORK = newToken();
const HOME_TOKEN = newToken();
let world: StdioWorld | undefined;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'work', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] },
        { name: 'home', content: 'demo', tokens: [{ token: HOME_TOKEN, accessLevel: 'full' }] },
      ],
    },
    config: [
      { name: 'work', nickname: 'Work', token: WORK, accessLevel: 'full' },
      { name: 'home', nickname: 'Home', token: HOME_TOKEN, accessLevel: 'full' },
    ],
  });
  ({ mcp } = world);
});

afterAll(() => world?.close());

describe('get_graph_guidelines', () => {
  it('is listed with the official argument: an optional graph', async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'get_graph_guidelines');
    expect(tool?.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['graph']);
    expect(tool?.annotations?.readOnlyHint).toBe(true);
  });

  it('asks which graph when several are configured and none is selected', async () => {
    const error = errorOf(await mcp.call('get_graph_guidelines', {}));
    expect(error.code).toBe('GRAPH_NOT_SELECTED');
  });

  it("answers what select_graph answers and gives the graph's ticket: writes then go through", async () => {
    const refused = errorOf(
      await mcp.call('create_block', { graph: 'Work', parentUid: 'apollo-pg', markdown: 'before' }),
    );
    expect(refused.code).toBe('GRAPH_TICKET_REQUIRED');

    const body = jsonOf(await mcp.call('get_graph_guidelines', { graph: 'Work' }));
    const selected = jsonOf(await mcp.call('select_graph', { graph: 'Work' }));
    expect(body).toEqual(selected);
    expect(body.nickname).toBe('Work');
    expect(body.next_steps).toContain('get_graph_guidelines');

    const created = await mcp.call('create_block', { parentUid: 'apollo-pg', markdown: 'after' });
    expect(created.isError).toBeFalsy();
  });

  it('without `graph` orients the selected graph', async () => {
    const body = jsonOf(await mcp.call('get_graph_guidelines', {}));
    expect(body.nickname).toBe('Work');
    const other = errorOf(
      await mcp.call('create_block', { graph: 'Home', parentUid: 'apollo-pg', markdown: 'x' }),
    );
    expect(other.code).toBe('GRAPH_TICKET_REQUIRED');
  });
});
