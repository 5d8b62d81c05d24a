// The tray's upload folders, the whole chain with nothing faked: the setting is stored, the
// launcher sends it with the store folder to the real roam-mcp child, and file_upload reads the
// folder the user chose but never the tray's store (tokens, key) even when that folder holds it.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { startCore, tempDirs, waitFor, connectThroughLauncher } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;

async function upload(filePath: string): Promise<{ isError?: boolean; text: string }> {
  const result = (await client.callTool({ name: 'file_upload', arguments: { filePath } })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  return { isError: result.isError, text: result.content.map((c) => c.text ?? '').join('') };
}

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'uploads', content: 'demo' }] });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  await core.handlers['graphs:add']({ name: 'uploads', nickname: 'Uploads', accessLevel: 'full' });
  await mkdir(path.join(dirs.home, 'Pictures'));
  await writeFile(path.join(dirs.home, 'Pictures', 'cat.txt'), 'a cat');
  client = await connectThroughLauncher(dirs, 'tray-uploads', { ROAM_MCP_TOOLS: 'all' });
  expect(
    (await client.callTool({ name: 'select_graph', arguments: { graph: 'Uploads' } })).isError ?? false,
  ).toBe(false);
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('upload folders chosen in the tray', () => {
  it('none by default: file_upload reads no local file and says where to allow one', async () => {
    expect((await core.handlers['settings:get'](undefined)).uploadFolders).toEqual([]);
    expect((await upload(path.join(dirs.home, 'Pictures', 'cat.txt'))).text).toMatch(/UPLOAD_FOLDER_NOT_SET/);
  });

  it('a chosen folder reaches the running server; the store inside it stays unreadable', async () => {
    // The parent of home and store: the store folder is inside what the user allowed.
    const root = path.dirname(dirs.home);
    await core.handlers['settings:set']({ uploadFolders: [root] });
    const cat = await waitFor(async () => {
      const answer = await upload(path.join(dirs.home, 'Pictures', 'cat.txt'));
      return answer.isError ? undefined : answer;
    });
    expect(cat.text).toContain('firebasestorage');
    for (const file of ['config.json', 'preview-secret.key']) {
      const answer = await upload(path.join(dirs.storeDir, file));
      expect([answer.isError, answer.text]).toEqual([true, expect.stringMatching(/cannot be uploaded/)]);
    }
  });

  it('refuses, in a person’s words, a folder that is not whole, hidden, missing or a file, and keeps the list', async () => {
    const before = (await core.handlers['settings:get'](undefined)).uploadFolders;
    const cat = path.join(dirs.home, 'Pictures', 'cat.txt');
    const ssh = path.join(dirs.home, '.ssh');
    await mkdir(ssh);
    for (const [folder, message] of [
      [
        'relative/path',
        "'relative/path' is not a whole path, so it was not added: type the folder's full path, like /home/you/Pictures.",
      ],
      [
        ssh,
        `'${ssh}' is in a hidden folder (.ssh), so it was not added: agents never read hidden files or folders. Choose another folder.`,
      ],
      [
        '/nonexistent/dir',
        "'/nonexistent/dir' does not exist on this computer, so it was not added. Check the path (copy it from your file manager) and add it again.",
      ],
      [cat, `'${cat}' is a file, not a folder, so it was not added: add the folder it is in.`],
    ] as const)
      await expect(
        core.handlers['settings:set']({ uploadFolders: [...before!, folder] }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT', message });
    expect((await core.handlers['settings:get'](undefined)).uploadFolders).toEqual(before);
  });

  it('a chosen folder deleted since stays removable: only added folders are checked', async () => {
    const gone = path.join(dirs.home, 'Gone');
    await mkdir(gone);
    const kept = (await core.handlers['settings:get'](undefined)).uploadFolders!;
    await core.handlers['settings:set']({ uploadFolders: [...kept, gone] });
    await rm(gone, { recursive: true });
    await core.handlers['settings:set']({ uploadFolders: [...kept, gone, path.join(dirs.home, 'Pictures')] });
    await core.handlers['settings:set']({ uploadFolders: kept });
    expect((await core.handlers['settings:get'](undefined)).uploadFolders).toEqual(kept);
  });
});
