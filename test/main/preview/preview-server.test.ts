/**
 * The preview bridge at the HTTP level: the real tray core against the real emulator, spoken to
 * with plain fetch, as the browser's HTTP bridge does.
 */
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../../src-main/preview/server.ts';
import { LOCAL_TOKEN_PREFIX } from '../../../src-shared/roam-config.ts';
import { startEmulator } from '../../emulator/index.ts';
import type { Emulator } from '../../emulator/types.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let preview: Preview;
const ipc = (channel: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${preview.url}ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${preview.key}`, ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  });

beforeAll(async () => {
  home = await tempDir('preview-server-');
  emulator = await startEmulator({ home, graphs: [{ name: 'work', content: 'demo' }] });
  preview = await startPreview({ home, emulator, statusPollMs: 0 });
});

afterAll(async () => {
  await preview?.close();
  await emulator?.close();
  await rm(home, { recursive: true, force: true });
});

describe('preview server', () => {
  it('listens on 127.0.0.1 only and serves the built renderer with its CSP', async () => {
    expect(preview.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(preview.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("script-src 'self'");
    expect(html).toContain('<script type="module" src="./app.js">');
    const script = await fetch(`${preview.url}app.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${preview.url}..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it('answers a malformed URL with 400, not a server fault', async () => {
    const response = await fetch(`${preview.url}%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/not valid URL encoding/),
    });
  });

  it('links a page icon that it serves, so no request ends in a missing /favicon.ico', async () => {
    const html = await (await fetch(preview.url)).text();
    const icon = /<link rel="icon" type="image\/png" href="\.\/([^"]+)"/.exec(html)?.[1];
    expect(icon).toBe('icon.png');
    const response = await fetch(`${preview.url}${icon}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('answers POST /ipc/<channel> with the core handler result', async () => {
    const response = await ipc('graphs:add', { name: 'work', nickname: 'Work' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'hosted:work', nickname: 'Work', enabled: true });
    const list = await (await ipc('graphs:list')).json();
    expect(list).toEqual([expect.objectContaining({ id: 'hosted:work' })]);
    expect((await ipc('graphs:remove', { id: 'hosted:work' })).status).toBe(204);
  });

  it('returns errors as {code, message} with a 4xx status', async () => {
    const invalid = await ipc('graphs:add', { name: '' });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { code: string; message: string };
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.message).toMatch(/Graph name is required/);

    const unknown = await ipc('graphs:explode');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/graphs:list/),
    });

    const badJson = await fetch(`${preview.url}ipc/graphs:list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${preview.key}` },
      body: '{oops',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ message: expect.stringMatching(/not valid JSON/) });

    const missing = await ipc('graphs:remove', { id: 'hosted:nope' });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.status).toBeLessThan(500);
  });

  it('answers no other local caller: every route of the bridge needs the run key the page URL carries', async () => {
    const keylessList = await fetch(`${preview.url}ipc/graphs:list`, { method: 'POST' });
    expect(keylessList.status).toBe(401);
    expect(preview.pageUrl).toBe(`${preview.url}#key=${preview.key}`);
    expect(preview.key).toMatch(/^[\w-]{43}$/); // 32 random bytes
    const other = await startPreview({ home, emulator, statusPollMs: 0, storeDir: `${home}/other-store` });
    try {
      expect(other.key).not.toBe(preview.key);
      const anyRoute = ['graphs:list', 'graphs:add', 'settings:set', 'clients:install'];
      for (const channel of anyRoute) {
        const keyless = await ipc(channel, {}, { authorization: '' });
        expect(keyless.status).toBe(401);
        expect(await keyless.json()).toMatchObject({ message: expect.stringMatching(/open the full URL/) });
        const wrong = await ipc(channel, {}, { authorization: `Bearer ${other.key}` });
        expect(wrong.status).toBe(403);
        const wrongInQuery = await fetch(`${preview.url}ipc/${channel}?key=${other.key}`, { method: 'POST' });
        expect(wrongInQuery.status).toBe(403);
      }
      expect((await fetch(`${preview.url}events`)).status).toBe(401);
      expect((await fetch(`${preview.url}events?key=${other.key}`)).status).toBe(403);
      expect((await fetch(`${preview.url}events?key=${preview.key.slice(1)}`)).status).toBe(403);
      // The page itself is public (the key is in the fragment, which a browser never sends).
      expect((await fetch(preview.pageUrl)).status).toBe(200);
      expect((await ipc('graphs:list')).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('refuses other origins and hosts', async () => {
    const crossSite = await ipc('graphs:list', undefined, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: 'FORBIDDEN_SENDER' });

    // fetch() cannot forge Host; node:http can, as a DNS-rebinding page would.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${preview.url}ipc/graphs:list`, {
        method: 'POST',
        headers: { host: `rebind.example:${preview.port}` },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('streams core events over GET /events, without tokens', async () => {
    const abort = new AbortController();
    const events = await fetch(`${preview.url}events?key=${preview.key}`, { signal: abort.signal });
    expect(events.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = events.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    emulator.decide('work', { kind: 'approve' });
    await ipc('graphs:add', { name: 'work', accessLevel: 'read-append' });
    await ipc('tokens:request', { id: 'hosted:work' });
    while (!/"status":"approved"/.test(text)) {
      const { value } = await reader.read();
      text += decoder.decode(value);
    }
    abort.abort();
    expect(text).toMatch(/event: graphs:changed\ndata: \[.*"id":"hosted:work"/);
    expect(text).toMatch(/event: tokens:request-changed\ndata: \{.*"status":"waiting"/);
    expect(text).not.toContain(LOCAL_TOKEN_PREFIX);
    const graphs = await (await ipc('graphs:list')).text();
    expect(graphs).toContain('"state":"ok"');
    expect(graphs).not.toContain(LOCAL_TOKEN_PREFIX);
  });
});
