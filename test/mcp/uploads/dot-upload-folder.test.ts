/**
 * An upload folder inside a dot-folder is never one (agents never read dot-files or dot-folders),
 * and the person who named it is told, as the tray's setting tells them: through the built bin,
 * `--upload-folder ~/.stash` and `"uploadFolders": ["~/.config/pics"]` are each named in a
 * warning on stderr and ignored, while a plain folder beside them works.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf, newToken, startMcp, toolsConfig, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const TOKEN = newToken();
let world: StdioWorld;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    prefix: 'roam-dot-folder-',
    emulator: { graphs: [{ name: 'main', tokens: [{ token: TOKEN, accessLevel: 'full' }] }] },
    config: [{ name: 'main', token: TOKEN }],
  });
  const { home } = world;
  for (const folder of ['.stash', '.config/pics', 'Pictures']) {
    await mkdir(path.join(home, folder), { recursive: true });
    await writeFile(path.join(home, folder, 'a.txt'), `in ${folder}`);
  }
  const config = path.join(home, 'uploads.json');
  const text = JSON.parse(toolsConfig([{ name: 'main', token: TOKEN }])) as Record<string, unknown>;
  await writeFile(config, JSON.stringify({ ...text, uploadFolders: ['~/.config/pics', '~/Pictures'] }));
  mcp = await startMcp({ home, args: ['--config', config, '--upload-folder', '~/.stash'] });
  jsonOf(await mcp.call('select_graph', { graph: 'main' }));
});

afterAll(async () => {
  await mcp?.close();
  await world?.close();
});

describe('an upload folder inside a dot-folder', () => {
  it('is named in a warning and ignored; the plain folder beside it works', async () => {
    await expect
      .poll(() => mcp.stderr())
      .toMatch(/--upload-folder: upload folder '~\/\.stash' has a dot-folder in its path.*ignored/);
    await expect
      .poll(() => mcp.stderr())
      .toMatch(/uploads\.json: upload folder '~\/\.config\/pics' has a dot-folder in its path/);
    for (const folder of ['.stash', '.config/pics']) {
      const error = errorOf(await mcp.call('file_upload', { filePath: `~/${folder}/a.txt` }));
      expect(error.message, folder).toMatch(/cannot be uploaded/);
      expect(error.message, folder).toContain(path.join(world.home, 'Pictures'));
      expect(error.message, folder).not.toContain(path.join(world.home, folder));
    }
    const ok = await mcp.call('file_upload', { filePath: '~/Pictures/a.txt' });
    expect(ok.isError ?? false).toBe(false);
  });
});
