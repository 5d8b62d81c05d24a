import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator, PageSpec } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

const NEWER = 'roam-graph-local-token-newerDELnewerDELnewerDEL12';
const OLDER = 'roam-graph-local-token-olderDELolderDELolderDEL12';
const content: PageSpec[] = [
  { title: 'Doomed', uid: 'doomedpg1', children: [{ string: 'a', uid: 'blocka001' }] },
];

let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-delete-');
  emulator = await startEmulator({
    home,
    graphs: [
      { name: 'newer', content, tokens: [{ token: NEWER, accessLevel: 'full' }] },
      { name: 'older', content, olderShapes: true, tokens: [{ token: OLDER, accessLevel: 'full' }] },
    ],
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

const del = (graph: string, token: string, kind: 'block' | 'page', uid: string) =>
  callAction(emulator, { graph, token, action: `data.${kind}.delete`, args: [{ [kind]: { uid } }] });

describe('deletion report (newer builds)', () => {
  it('answers {deleted: true}, then {deleted: false, reason: "not-found"} in a success envelope', async () => {
    for (const [kind, uid] of [
      ['block', 'blocka001'],
      ['page', 'doomedpg1'],
    ] as const) {
      const first = await del('newer', NEWER, kind, uid);
      expect(first.status).toBe(200);
      expect(first.body.result).toEqual({ deleted: true });
      const again = await del('newer', NEWER, kind, uid);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ success: true, result: { deleted: false, reason: 'not-found' } });
    }
  });
});

describe('older builds (olderShapes)', () => {
  it('answer null with no report, and fail on a uid that does not exist', async () => {
    const first = await del('older', OLDER, 'block', 'blocka001');
    expect(first.status).toBe(200);
    expect(first.body.result).toBeNull();
    const again = await del('older', OLDER, 'block', 'blocka001');
    expect(again.status).toBe(500);
    expect(again.body.success).toBe(false);
  });
});
