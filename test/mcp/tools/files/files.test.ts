/**
 * file_get / file_upload / file_delete through the built bin against the emulator: base64 and
 * local path sources (the folder allowed with `uploadFolders` in ~/.roam-tools.json), the
 * local-path rules (upload folders only, no product files, no token, symlinks resolved first,
 * size bound), scope errors and an older Roam without files. What URLs and paths are refused in
 * depth: test/mcp/uploads/upload-safety.test.ts and test/mcp/uploads/.
 */
import { mkdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../../emulator/index.ts';
import {
  errorOf,
  jsonOf,
  newToken,
  toolsConfig,
  textOf,
  type McpHandle,
  toolsConfigPath,
} from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';
import { tempDir } from '../../../harness/temp-dir.ts';

const FULL = newToken();
const APPEND = newToken();
const OLDER = newToken();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
let world: StdioWorld;
let home: string;
let outside: string;
let emulator: Emulator;
let mcp: McpHandle;
let notes: string;

const uploads = () => emulator.requests.filter((r) => r.action === 'file.upload');

beforeAll(async () => {
  outside = await tempDir('files-outside-');
  const config = JSON.parse(
    toolsConfig([
      { name: 'main', token: FULL, accessLevel: 'full' },
      // No level chosen: the token's own limits (Roam's INSUFFICIENT_SCOPE) are tested.
      { name: 'shared', token: APPEND },
      { name: 'older', token: OLDER, accessLevel: 'full' },
    ]),
  ) as Record<string, unknown>;
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'main', tokens: [{ token: FULL, accessLevel: 'full' }] },
        { name: 'shared', tokens: [{ token: APPEND, accessLevel: 'read-append' }] },
        {
          name: 'older',
          missingActions: ['file.upload', 'file.get', 'file.delete'],
          tokens: [{ token: OLDER, accessLevel: 'full' }],
        },
      ],
    },
    config: { text: JSON.stringify({ ...config, uploadFolders: ['~/notes'] }), mode: 0o600 },
    prepare: async (dir) => {
      notes = path.join(dir, 'notes');
      await mkdir(notes);
    },
    orient: ['main', 'shared', 'older'],
  });
  ({ home, emulator, mcp } = world);
});

afterAll(async () => {
  await world?.close();
  await rm(outside, { recursive: true, force: true });
});

describe('file_upload and file_get', () => {
  it('uploads base64 and reads an image back as image content', async () => {
    const { url, markdown } = jsonOf<{ url: string; markdown: string }>(
      await mcp.call('file_upload', { graph: 'main', base64: PNG.toString('base64'), filename: 'dot.png' }),
    );
    expect(markdown).toBe(`![](${url})`);
    const upload = uploads().at(-1)!.body as { args: Array<Record<string, unknown>> };
    expect(upload.args[0]).toEqual({
      base64: PNG.toString('base64'),
      mimetype: 'image/png',
      filename: 'dot.png',
    });
    const got = await mcp.call('file_get', { graph: 'main', url });
    expect(got.isError).toBeFalsy();
    expect(got.content[0]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
  });

  it('uploads a file from an upload folder and reads text back as text', async () => {
    const file = path.join(notes, 'today.md');
    await writeFile(file, '# Today\n- walked');
    const { url } = jsonOf<{ url: string }>(await mcp.call('file_upload', { graph: 'main', filePath: file }));
    const got = jsonOf<{ text: string; mimetype: string; filename: string }>(
      await mcp.call('file_get', { graph: 'main', url }),
    );
    expect(got).toMatchObject({ text: '# Today\n- walked', mimetype: 'text/markdown', filename: 'today.md' });
  });
});

const NOT_ALLOWED =
  /cannot be uploaded: file_upload reads only existing files inside the folders the user allowed/;

describe('what file_upload refuses, before anything reaches Roam', () => {
  it.each([
    ['a file outside the upload folders', async () => path.join(outside, 'a.txt'), NOT_ALLOWED],
    [
      'a file in the home folder but not in an upload folder',
      async () => path.join(home, 'x.txt'),
      NOT_ALLOWED,
    ],
    [
      'a symlink in an upload folder pointing outside it',
      async () => {
        const link = path.join(notes, 'escape.txt');
        await symlink(path.join(outside, 'a.txt'), link);
        return link;
      },
      NOT_ALLOWED,
    ],
    ['the product config (~/.roam-tools.json)', async () => toolsConfigPath(home), NOT_ALLOWED],
    [
      'a symlink to the product config',
      async () => {
        const link = path.join(notes, 'innocent.json');
        await symlink(toolsConfigPath(home), link);
        return link;
      },
      NOT_ALLOWED,
    ],
    [
      "Roam's port file (~/.roam-local-api.json)",
      async () => path.join(home, '.roam-local-api.json'),
      NOT_ALLOWED,
    ],
    [
      'a file that contains a Roam token',
      async () => {
        const file = path.join(notes, 'backup.txt');
        await writeFile(file, `my token: ${APPEND}\n`);
        return file;
      },
      /contains a Roam API token/,
    ],
    [
      'a file over 10 MB',
      async () => {
        const file = path.join(notes, 'huge.bin');
        await writeFile(file, '');
        await truncate(file, 10 * 1024 * 1024 + 1);
        return file;
      },
      /up to 10 MB/,
    ],
    ['a relative path', async () => 'notes/today.md', /must be absolute/],
  ])('%s', async (_label, makePath, message) => {
    await writeFile(path.join(outside, 'a.txt'), 'outside');
    await writeFile(path.join(home, 'x.txt'), 'home');
    const before = uploads().length;
    const error = errorOf(await mcp.call('file_upload', { graph: 'main', filePath: await makePath() }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toMatch(message);
    expect(uploads().length).toBe(before);
    expect(mcp.transcript()).not.toContain(APPEND);
  });

  it('base64 that contains a token, and zero or two sources', async () => {
    const before = uploads().length;
    const base64 = Buffer.from(`x ${FULL}`).toString('base64');
    expect(errorOf(await mcp.call('file_upload', { graph: 'main', base64 })).message).toMatch(
      /Roam API token/,
    );
    expect(errorOf(await mcp.call('file_upload', { graph: 'main' })).message).toMatch(
      /exactly one of filePath, url or base64/,
    );
    expect(
      errorOf(
        await mcp.call('file_upload', { graph: 'main', base64: 'AAAA', url: 'https://example.com/a.png' }),
      ).code,
    ).toBe('INVALID_PARAMS');
    expect(
      errorOf(await mcp.call('file_upload', { graph: 'main', url: 'file:///etc/passwd' })).message,
    ).toMatch(/Only http and https/);
    expect(uploads().length).toBe(before);
    expect(mcp.transcript()).not.toContain(FULL);
  });
});

describe('file_delete, scopes and older Roam', () => {
  it('deletes a file; reading it afterwards fails', async () => {
    const { url } = jsonOf<{ url: string }>(
      await mcp.call('file_upload', { graph: 'main', base64: PNG.toString('base64') }),
    );
    expect(jsonOf(await mcp.call('file_delete', { graph: 'main', url }))).toEqual({ deleted: true, url });
    expect((await mcp.call('file_get', { graph: 'main', url })).isError).toBe(true);
  });

  it('a read-append token may upload but not delete', async () => {
    const { url } = jsonOf<{ url: string }>(
      await mcp.call('file_upload', { graph: 'shared', base64: PNG.toString('base64') }),
    );
    expect(errorOf(await mcp.call('file_delete', { graph: 'shared', url })).code).toBe('INSUFFICIENT_SCOPE');
  });

  it('an older Roam without files answers UNKNOWN_ACTION naming the tool and "update Roam Desktop"', async () => {
    const error = errorOf(await mcp.call('file_upload', { graph: 'older', base64: PNG.toString('base64') }));
    expect(error.code).toBe('UNKNOWN_ACTION');
    expect(error.message).toContain('files (file_upload)');
    expect(error.message).toContain('update Roam Desktop');
    expect(textOf(await mcp.call('file_get', { graph: 'older', url: 'https://x' }))).toContain(
      'files (file_get)',
    );
  });
});
