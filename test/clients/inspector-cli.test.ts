/**
 * The MCP Inspector CLI (2.x, a client nobody here wrote) against the built bin over stdio: it
 * lists the tools and calls list_graphs and get_page on an emulator graph. The Inspector needs
 * Node ≥ 22.19, so it runs on the npm-shipped Node 24 (scripts/lts-node.mjs); the bin runs
 * on the Node under test (test/harness/mcp-bin.ts binCommand). The token lives only in the temp HOME's config file, never in argv or env.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { binCommand, ROOT, newToken, removeHome, tempHome, writeToolsConfig } from '../harness/mcp-bin.ts';
import { ltsNodePath, ltsNodeSupported } from '../../scripts/lts-node.mjs';

const INSPECTOR_NODE = ltsNodePath('node24');
const INSPECTOR = path.join(
  ROOT,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const TOKEN = newToken();

let home: string;
let emulator: Emulator;

/** One Inspector CLI run (`--cli --format json -q`), its stdout parsed; rejects on a non-zero exit. */
async function inspect(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    INSPECTOR_NODE,
    [
      INSPECTOR,
      '--cli',
      '--format',
      'json',
      '-q',
      '-e',
      'ROAM_MCP_NO_LAUNCH=1',
      ...args,
      ...binCommand().flat(),
    ],
    // HOME holds the Inspector's own catalog and our config file; the Inspector passes HOME on.
    { cwd: home, env: { HOME: home, PATH: process.env.PATH ?? '' }, timeout: 60_000 },
  );
  expect(stdout).not.toContain(TOKEN);
  return JSON.parse(stdout) as Record<string, unknown>;
}

function textOf(response: Record<string, unknown>): string {
  const result = response.result as { content: Array<{ type: string; text?: string }>; isError?: boolean };
  expect(result.isError ?? false).toBe(false);
  return result.content.map((c) => c.text ?? '').join('\n');
}

beforeAll(async () => {
  home = await tempHome('roam-inspector-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'demo', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  await writeToolsConfig(home, [{ name: 'demo', token: TOKEN, nickname: 'Demo' }]);
});

afterAll(async () => {
  await emulator?.close();
  await removeHome(home);
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

  it('calls list_graphs and sees the configured graph', async () => {
    const text = textOf(await inspect(['--method', 'tools/call', '--tool-name', 'list_graphs']));
    expect(text).toContain('Demo');
  });

  it('calls get_page and reads the page from the emulator graph', async () => {
    const title = 'Project Apollo';
    const expected = emulator.graph('demo').run('data.ai.getPage', [{ title }]) as { markdown: string };
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
    expect(emulator.requests.some((r) => r.action === 'data.ai.getPage')).toBe(true);
  });
});
