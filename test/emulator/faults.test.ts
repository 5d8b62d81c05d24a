import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  home = await tempDir('emulator-faults-');
  emulator = await startEmulator({ home, graphs: [{ name: 'g', content: 'demo' }] });
  token = emulator.addToken('g', 'hosted', 'read-only');
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

afterEach(() => {
  emulator.setFault(null);
  emulator.clearRequests();
});

const getPage = () =>
  callAction(emulator, { graph: 'g', token, action: 'data.ai.getPage', args: [{ title: 'Project Hermes' }] });
const rawPost = (signal?: AbortSignal) =>
  fetch(`${emulator.url}/api/g`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'graph.name', args: [] }),
    ...(signal ? { signal } : {}),
  });

describe('setFault', () => {
  it('latency: the answer is held back, then arrives intact', async () => {
    const abort = new AbortController();
    emulator.setFault({ kind: 'latency', ms: 60_000 });
    const held = rawPost(abort.signal).catch((error: unknown) => error);
    await vi.waitFor(() => expect(emulator.requests).toHaveLength(1));
    abort.abort();
    expect(await held).toBeInstanceOf(Error);
    expect(emulator.requests[0]?.status).toBeUndefined();

    emulator.setFault({ kind: 'latency', ms: 5 });
    const reply = await getPage();
    expect(reply.status).toBe(200);
    expect((reply.body.result as { markdown: string }).markdown).toMatch(/^# Project Hermes/);
  });

  it('drop: the socket is destroyed without a response', async () => {
    emulator.setFault({ kind: 'drop' });
    await expect(rawPost()).rejects.toThrow(/fetch failed/);
    expect(emulator.requests[0]).toMatchObject({ action: 'graph.name' });
    expect(emulator.requests[0]?.status).toBeUndefined();
  });

  it('status 504 and 500 answer with Roam-like messages that say what to do', async () => {
    emulator.setFault({ kind: 'status', status: 504 });
    const timeout = await getPage();
    expect(timeout.status).toBe(504);
    expect(timeout.body).toEqual({
      success: false,
      error: {
        message:
          "Timed out waiting for graph 'g' to load. If the graph is encrypted, enter its encryption password in Roam Desktop, then retry.",
      },
    });
    emulator.setFault({ kind: 'status', status: 500 });
    const internal = await getPage();
    expect(internal.status).toBe(500);
    expect(internal.body.error?.message).toMatch(
      /^Internal error .* Retry once Roam Desktop has the graph open\.$/,
    );
  });

  it('malformed-json: a 200 whose body does not parse', async () => {
    emulator.setFault({ kind: 'malformed-json' });
    const response = await rawPost();
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith('{"success": true')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('filters by action and stops after `times`', async () => {
    emulator.setFault({ kind: 'status', status: 500 }, { action: 'data.ai.getPage', times: 2 });
    expect((await rawPost()).status).toBe(200);
    expect((await getPage()).status).toBe(500);
    expect((await getPage()).status).toBe(500);
    expect((await getPage()).status).toBe(200);
    expect(emulator.requests.map((r) => [r.action, r.status])).toEqual([
      ['graph.name', 200],
      ['data.ai.getPage', 500],
      ['data.ai.getPage', 500],
      ['data.ai.getPage', 200],
    ]);
  });

  it('applies to discovery endpoints when no action is given, and clears with null', async () => {
    emulator.setFault({ kind: 'status', status: 500 });
    expect((await fetch(`${emulator.url}/api/graphs/available`)).status).toBe(500);
    emulator.setFault(null);
    expect((await fetch(`${emulator.url}/api/graphs/available`)).status).toBe(200);
    expect(() => emulator.setFault({ kind: 'drop' }, { times: 0 })).toThrow(
      '"times" must be a positive integer',
    );
  });
});
