import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

const FULL = 'roam-graph-local-token-filesFULLfilesFULLfilesFU1';
const READ = 'roam-graph-local-token-filesREADfilesREADfilesRE1';
const APPEND = 'roam-graph-local-token-filesAPPNfilesAPPNfilesAP1';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64');

let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-files-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'files',
        tokens: [
          { token: FULL, accessLevel: 'full' },
          { token: READ, accessLevel: 'read-only' },
          { token: APPEND, accessLevel: 'read-append' },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

const call = (token: string, action: string, arg: object) =>
  callAction(emulator, { graph: 'files', token, action, args: [arg] });

describe('file.* actions', () => {
  it('take base64 in, answer a markdown-wrapped storage URL, read back and delete', async () => {
    const upload = await call(APPEND, 'file.upload', {
      base64: PNG,
      mimetype: 'image/png',
      filename: 'a.png',
    });
    expect(upload.status).toBe(200);
    const wrapped = upload.body.result as string;
    expect(wrapped).toMatch(
      /^!\[\]\(https:\/\/firebasestorage\.googleapis\.com\/.+\.png\?alt=media&token=.+\)$/,
    );
    const url = wrapped.slice(4, -1);
    const got = await call(READ, 'file.get', { url, format: 'base64' });
    expect(got.body.result).toEqual({ base64: PNG, mimetype: 'image/png', filename: 'a.png' });
    expect((await call(FULL, 'file.delete', { url })).body).toMatchObject({ success: true, result: null });
    expect((await call(READ, 'file.get', { url, format: 'base64' })).status).toBe(500);
  });

  it('need append to upload and edit to delete', async () => {
    const upload = await call(READ, 'file.upload', { base64: PNG, mimetype: 'image/png' });
    expect(upload.status).toBe(403);
    expect(upload.body.error?.code).toBe('INSUFFICIENT_SCOPE');
    const stored = await call(APPEND, 'file.upload', { base64: PNG, mimetype: 'image/png' });
    const url = (stored.body.result as string).slice(4, -1);
    const remove = await call(APPEND, 'file.delete', { url });
    expect(remove.status).toBe(403);
    expect(remove.body.error?.code).toBe('INSUFFICIENT_SCOPE');
  });
});
