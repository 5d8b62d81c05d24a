/**
 * The MCP Inspector CLI (2.x, a client nobody here wrote) against the built bin over stdio: it
 * lists the tools and calls list_graphs and get_page on an emulator graph. The Inspector needs
 * Node ≥ 22.19, so it runs on the npm-shipped Node 24 (scripts/lts-node.mjs); the bin runs
 * on the Node under test (test/harness/mcp-bin.ts binCommand). The token lives only in the temp HOME's config file, never in argv or env.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ltsNodeSupported } from '../../scripts/lts-node.mjs';
import { startInspectorHome, type InspectorHome } from './inspector.ts';

let inspector: InspectorHome;

/** One Inspector CLI run, its JSON answer. */
const inspect = async (args: string[]) =>
  JSON.parse(await inspector.inspect(args)) as Record<string, unknown>;

function textOf(response: Record<string, unknown>): string {
  const result = response.result as { content: Array<{ type: string; text?: string }>; isError?: boolean };
  expect(result.isError ?? false).toBe(false);
  return result.content.map((c) => c.text ?? '').join('\n');
}

beforeAll(async () => {
  inspector = await startInspectorHome('roam-inspector-');
});

afterAll(async () => {
  await inspector?.close();
});

describe.skipIf(!ltsNodeSupported)('the MCP Inspector CLI against dist/roam-mcp.mjs', () => {
  it('lists the tools, each with an input schema', async () => {
    const { result } = (await inspect(['--method', 'tools/list'])) as {
      result: { tools: Array<{ name: string; inputSchema: { type: string } }> };
    };
    const names = result.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_graphs', 'select_graph', 'get_page', 'search']));
    for (const tool of result.tools) expect(tool.inputSchema.type).toBe('object');
  });

  it('finds no schema portability problem in any tool, developer tools included (--strict)', async () => {
    const { result, schemaFindings } = (await inspect([
      '-e',
      'ROAM_MCP_TOOLS=all',
      '--method',
      'tools/list',
      '--strict',
    ])) as { result: { tools: unknown[] }; schemaFindings?: unknown[] };
    expect(result.tools.length).toBeGreaterThan(45);
    // The Inspector leaves the findings out when there are none (the nullable outputs, create_block's
    // dailyNotePage and the free-form values once gave 12 warnings over 6 tools).
    expect(schemaFindings ?? []).toEqual([]);
  });

  it('calls list_graphs and sees the configured graph', async () => {
    const text = textOf(await inspect(['--method', 'tools/call', '--tool-name', 'list_graphs']));
    expect(text).toContain('Demo');
  });

  it('calls get_page and reads the page from the emulator graph', async () => {
    const title = 'Project Apollo';
    const expected = inspector.emulator.graph('demo').run('data.ai.getPage', [{ title }]) as {
      markdown: string;
    };
    const text = textOf(
      await inspect([
        '--method',
        'tools/call',
        '--tool-name',
        'get_page',
        '--tool-args-json',
        JSON.stringify({ title }),
      ]),
    );
    const firstLine = expected.markdown.split('\n').find((l) => l.trim().length > 0) ?? '';
    expect(firstLine.length).toBeGreaterThan(0);
    expect(text).toContain(firstLine.replace(/^\s*-\s*/, '').slice(0, 40));
    expect(inspector.emulator.requests.some((r) => r.action === 'data.ai.getPage')).toBe(true);
  });
});
