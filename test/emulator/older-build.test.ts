import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

const OLDER = 'roam-graph-local-token-olderFULLolderFULLolderFULL1';
const NEWER = 'roam-graph-local-token-newerFULLnewerFULLnewerFULL1';
const SHAPES = 'roam-graph-local-token-shapeFULLshapeFULLshapeFULL1';
const guidelines = { action: 'data.ai.getGraphGuidelines', args: [{}] };

let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-older-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'older',
        missingActions: ['data.ai.getGraphGuidelines'],
        tokens: [{ token: OLDER, accessLevel: 'full' }],
      },
      { name: 'newer', tokens: [{ token: NEWER, accessLevel: 'full' }] },
      { name: 'shapes', olderShapes: true, tokens: [{ token: SHAPES, accessLevel: 'full' }] },
    ],
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

describe('an older Roam build (missingActions)', () => {
  it('answers UNKNOWN_ACTION for the actions it lacks and serves the rest', async () => {
    const missing = await callAction(emulator, { graph: 'older', token: OLDER, ...guidelines });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({
      code: 'UNKNOWN_ACTION',
      message: 'API action not found: data.ai.getGraphGuidelines',
    });
    const query = { action: 'data.q', args: ['[:find ?t :where [?p :node/title ?t]]'] };
    expect((await callAction(emulator, { graph: 'older', token: OLDER, ...query })).status).toBe(200);
  });

  it('leaves other graphs whole', async () => {
    const reply = await callAction(emulator, { graph: 'newer', token: NEWER, ...guidelines });
    expect(reply.status).toBe(200);
  });

  it("ignores fromMarkdown's `open` on a build that predates it", async () => {
    const write = (graph: string, token: string, title: string) =>
      callAction(emulator, {
        graph,
        token,
        action: 'data.block.fromMarkdown',
        args: [{ location: { 'page-title': title, order: 'last' }, 'markdown-string': 'x', open: false }],
      });
    const open = (graph: string, uid: string) =>
      emulator
        .graph(graph)
        .run('data.q', [`[:find ?o . :where [?b :block/uid "${uid}"] [?b :block/open ?o]]`]);
    const older = (await write('shapes', SHAPES, 'P')).body as { result: { uids: string[] } };
    const newer = (await write('newer', NEWER, 'P')).body as { result: { uids: string[] } };
    expect(open('shapes', older.result.uids[0]!)).toBe(true);
    expect(open('newer', newer.result.uids[0]!)).toBe(false);
  });
});
