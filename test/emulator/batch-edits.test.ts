import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator, PageSpec } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

const FULL = 'roam-graph-local-token-batchFULLbatchFULLbatchFU1';
const APPEND = 'roam-graph-local-token-batchAPPNbatchAPPNbatchAP1';
const content: PageSpec[] = [
  {
    title: 'Batch',
    uid: 'batchpage',
    children: [
      { string: 'one', uid: 'block0001' },
      { string: 'two', uid: 'block0002', children: [{ string: 'child', uid: 'block0003' }] },
      { string: 'three', uid: 'block0004' },
    ],
  },
];

let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-batch-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'batch',
        content,
        tokens: [
          { token: FULL, accessLevel: 'full' },
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

const call = (action: string, arg: object, token = FULL) =>
  callAction(emulator, { graph: 'batch', token, action, args: [arg] });
const text = (uid: string) =>
  emulator
    .graph('batch')
    .run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);

describe('data.block.updateBlocks', () => {
  it('applies each item on its own and reports them in input order', async () => {
    const reply = await call('data.block.updateBlocks', {
      updates: [
        { uid: 'block0001', string: 'ONE' },
        { uid: 'missing01', string: 'x' },
        { uid: 'batchpage', string: 'x' },
        { uid: 'block0004', heading: 2 },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({
      results: [
        { uid: 'block0001', ok: true },
        { uid: 'missing01', ok: false, code: 'NOT_FOUND', message: 'no block with uid "missing01"' },
        {
          uid: 'batchpage',
          ok: false,
          code: 'VALIDATION_ERROR',
          message: '"batchpage" is a page, not a block',
        },
        { uid: 'block0004', ok: true },
      ],
    });
    expect(text('block0001')).toBe('ONE');
  });

  it('accepts the CHANGELOG name updateMany, needs edit scope, and 1 to 25 items', async () => {
    expect(
      (await call('data.block.updateMany', { updates: [{ uid: 'block0001', string: 'one' }] })).status,
    ).toBe(200);
    const scope = await call(
      'data.block.updateBlocks',
      { updates: [{ uid: 'block0001', string: 'x' }] },
      APPEND,
    );
    expect(scope.status).toBe(403);
    expect(scope.body.error?.code).toBe('INSUFFICIENT_SCOPE');
    const many = Array.from({ length: 26 }, () => ({ uid: 'block0001', string: 'x' }));
    expect((await call('data.block.updateBlocks', { updates: many })).status).toBe(500);
    expect((await call('data.block.updateBlocks', { updates: [] })).status).toBe(500);
  });
});

describe('data.block.deleteBlocks', () => {
  it('reports deletions, a descendant gone with its ancestor, and misses as deleted:false', async () => {
    const reply = await call('data.block.deleteBlocks', {
      uids: ['block0002', 'block0003', 'missing01', 'block0004'],
    });
    expect(reply.body.result).toEqual({
      results: [
        { uid: 'block0002', ok: true, deleted: true },
        { uid: 'block0003', ok: true, deleted: true, note: 'deleted with its ancestor block0002' },
        { uid: 'missing01', ok: false, deleted: false, reason: 'not-found' },
        { uid: 'block0004', ok: true, deleted: true },
      ],
    });
    expect(text('block0002')).toBeNull();
    expect(text('block0004')).toBeNull();
    expect(text('block0001')).toBe('one');
  });
});
