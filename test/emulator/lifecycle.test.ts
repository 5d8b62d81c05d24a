import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  home = await tempDir('emulator-lifecycle-');
  emulator = await startEmulator({ home, graphs: [{ name: 'g', content: 'demo' }] });
  token = emulator.addToken('g', 'hosted', 'read-only');
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

const portFile = () =>
  readFile(path.join(home, '.roam-local-api.json'), 'utf8').then((text) => JSON.parse(text));

describe('port file, stop and start', () => {
  it('writes {"port": N} for the port it listens on', async () => {
    expect(await portFile()).toEqual({ port: emulator.port });
    expect(emulator.url).toBe(`http://127.0.0.1:${emulator.port}`);
    const reply = await callAction(emulator, { graph: 'g', token, action: 'graph.name' });
    expect(reply.body.result).toBe('g');
  });

  it('closes the port on stop (the file stays) and reopens on a new port that the file names', async () => {
    const oldPort = emulator.port;
    await emulator.stop();
    await expect(fetch(`http://127.0.0.1:${oldPort}/api/graphs/open`)).rejects.toThrow();
    expect(await portFile()).toEqual({ port: oldPort });

    await emulator.start();
    expect(await portFile()).toEqual({ port: emulator.port });
    const open = await fetch(`${emulator.url}/api/graphs/open`).then((r) => r.json());
    expect(open).toEqual({ success: true, result: [] });
    const reply = await callAction(emulator, { graph: 'g', token, action: 'graph.type' });
    expect(reply.body.result).toBe('hosted');
  });

  it('restarts on a requested port', async () => {
    const port = emulator.port;
    await emulator.stop();
    await emulator.start(port);
    expect(emulator.port).toBe(port);
    expect((await callAction(emulator, { graph: 'g', token, action: 'graph.name' })).status).toBe(200);
  });

  it('refuses to start twice, with a message saying what to do', async () => {
    await expect(emulator.start()).rejects.toThrow(
      'The emulator is already running; call stop() before start().',
    );
  });
});
