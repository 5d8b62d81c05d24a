/**
 * Toolset selections and setup messages through the built bin: a name that is only a property of
 * every object (`constructor`, `__proto__`) is an unknown toolset, a selection that can never
 * write says so at startup and when a write is called, and the setup advice names the command
 * people can run (`roam-mcp` is the bin of the `roam-companion` package).
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  errorOf,
  newToken,
  removeHome,
  ROOT,
  startMcp,
  tempHome,
  type McpHandle,
  toolsConfigPath,
} from '../harness/mcp-bin.ts';

const TOKEN = newToken();
let home: string;
let emulator: Emulator;
const handles: McpHandle[] = [];

async function serve(options: { args?: string[]; env?: Record<string, string> }): Promise<McpHandle> {
  const mcp = await startMcp({ home, ...options });
  handles.push(mcp);
  return mcp;
}

beforeAll(async () => {
  home = await tempHome();
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'sel', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
});

afterAll(async () => {
  for (const mcp of handles) await mcp.close();
  await emulator?.close();
  await removeHome(home);
});

describe('toolset names', () => {
  it.each(['constructor', '__proto__'])(
    '--tools %s is CONFIG_INVALID, not an empty selection',
    async (name) => {
      const mcp = await serve({ args: ['--tools', name], env: { ROAM_GRAPH: 'sel', ROAM_API_TOKEN: TOKEN } });
      const error = errorOf(await mcp.call('list_graphs'));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toContain(`unknown toolset '${name.toLowerCase()}'`);
    },
  );
});

describe('a selection that cannot write', () => {
  it('--tools files says at startup and on a write that select_graph (core) is missing', async () => {
    const mcp = await serve({
      args: ['--tools', 'files'],
      env: { ROAM_GRAPH: 'sel', ROAM_API_TOKEN: TOKEN },
    });
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['file_get']);
    await expect
      .poll(() => mcp.stderr())
      .toMatch(/offer tools that change the graph \(file_upload, file_delete\) but not select_graph/);
    expect(mcp.stderr()).toMatch(/can only read/);
    const error = errorOf(await mcp.call('file_upload', { base64: 'aGVsbG8=', filename: 'a.txt' }));
    expect(error).toMatchObject({ code: 'TOOLSET_NOT_ENABLED', toolset: 'core' });
    expect(error.message).toMatch(/select_graph is in the 'core' toolset.*can only read.*--tools files,core/);
  });

  it('a selection with select_graph says nothing of the kind', async () => {
    const mcp = await serve({
      args: ['--tools', 'core,files'],
      env: { ROAM_GRAPH: 'sel', ROAM_API_TOKEN: TOKEN },
    });
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain('file_upload');
    expect(mcp.stderr()).not.toMatch(/can only read/);
  });
});

describe('setup advice names our own command', () => {
  it('without a config, run from a clone, the answer names the connect command of this clone', async () => {
    const mcp = await serve({});
    const error = errorOf(await mcp.call('list_graphs'));
    expect(error.code).toBe('CONFIG_NOT_FOUND');
    // The package is not on npm: `npx -p roam-companion …` would fail for a person with a clone.
    expect(error.message).toContain(
      `run '${process.execPath} ${path.join(ROOT, 'dist', 'roam-mcp.mjs')} connect'`,
    );
    expect(error.message).not.toMatch(/npx/);
  });

  it('a config file that cannot be read is named by its own error, not as "(no config)"', async () => {
    const odd = await tempHome();
    try {
      await mkdir(toolsConfigPath(odd)); // a folder where the file should be
      const mcp = await startMcp({ home: odd });
      handles.push(mcp);
      const error = errorOf(await mcp.call('list_graphs'));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/^The Roam MCP config has a problem: .*\.roam-tools\.json/);
      expect(error.message).not.toContain('(no config)');
    } finally {
      await removeHome(odd);
    }
  });

  it('no message in the product tells people to run `npx roam-mcp` (another package)', async () => {
    const found: string[] = [];
    for (const dir of ['src-mcp', 'src-shared', 'src-main', 'src-renderer']) {
      const files = (await readdir(path.join(ROOT, dir), { recursive: true })) as string[];
      for (const file of files.filter((f) => /\.tsx?$/.test(f))) {
        const text = await readFile(path.join(ROOT, dir, file), 'utf8');
        if (/npx (-y )?roam-mcp/.test(text)) found.push(path.join(dir, file));
      }
    }
    expect(found).toEqual([]);
  });
});
