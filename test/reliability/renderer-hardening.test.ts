/**
 * The renderer's attack surface, one assertion per property: the manager window's
 * webPreferences (contextIsolation, sandbox, no Node), a strict CSP in src-renderer/index.html,
 * navigation and window.open blocked, IPC refused from foreign frames, a preload without generic
 * IPC. `electron` is faked (test/harness/fake-electron.ts): the real module never loads.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { requestChannels } from '../../src-shared/constants.ts';
import { fake } from '../harness/fake-electron.ts';
import { ROOT } from '../harness/mcp-bin.ts';

vi.mock('electron', async () => (await import('../harness/fake-electron.ts')).electronModule());

let window: (typeof fake.windows)[number];
let csp: Map<string, string[]>;

beforeAll(async () => {
  const { createManagerWindow } = await import('../../src-main/shell/main-window.ts');
  createManagerWindow({ preload: '/app/preload.cjs', rendererIndex: '/app/renderer/index.html' });
  window = fake.windows[0]!;
  const html = await readFile(path.join(ROOT, 'src-renderer/index.html'), 'utf8');
  const content = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
  csp = new Map(
    content
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
});

const prefs = () => window.options.webPreferences as Record<string, unknown>;

describe('renderer hardening', () => {
  it('contextIsolation is on', () => expect(prefs().contextIsolation).toBe(true));
  it('the renderer is sandboxed', () => expect(prefs().sandbox).toBe(true));
  it('no Node integration (page or workers)', () =>
    expect([prefs().nodeIntegration, prefs().nodeIntegrationInWorker ?? false]).toEqual([false, false]));
  it('webSecurity is not turned off', () => expect(prefs().webSecurity ?? true).toBe(true));
  it('a middle click opens nothing (auxclick off)', () =>
    expect(prefs().disableBlinkFeatures).toBe('Auxclick'));

  it('the CSP limits everything to the app itself', () => expect(csp.get('default-src')).toEqual(["'self'"]));
  it('the CSP runs only the bundled scripts: no inline, no eval, no remote', () =>
    expect(csp.get('script-src')).toEqual(["'self'"]));
  it('the CSP lets the page connect nowhere but itself', () =>
    expect(csp.get('connect-src') ?? ["'self'"]).toEqual(["'self'"]));
  it('the CSP has no wildcard or plain-http source anywhere', () =>
    expect(
      [...csp.values()].flat().filter((v) => v === '*' || v.startsWith('http:') || v === "'unsafe-eval'"),
    ).toEqual([]));

  it('the CSP forbids <base> and form submissions, and plugins', () =>
    expect([csp.get('base-uri'), csp.get('form-action'), csp.get('object-src')]).toEqual([
      ["'none'"],
      ["'none'"],
      ["'none'"],
    ]));

  it.each(['will-navigate', 'will-redirect', 'will-frame-navigate', 'will-attach-webview'])(
    '%s away from the app is prevented',
    (name) => {
      const event = { preventDefault: vi.fn() };
      window.webContents.handlers.get(name)?.(event, 'https://evil.example/');
      expect(event.preventDefault).toHaveBeenCalledTimes(1);
    },
  );

  it('every permission request and check is denied', () => {
    const answers: boolean[] = [];
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal'])
      window.webContents.permissions.request?.(
        {},
        permission,
        (granted: boolean) => answers.push(granted),
        {},
      );
    const checks = ['media', 'clipboard-sanitized-write', 'hid'].map((p) =>
      window.webContents.permissions.check?.({}, p),
    );
    expect({ answers, checks }).toEqual({
      answers: [false, false, false, false, false],
      checks: [false, false, false],
    });
  });

  it('window.open is always denied; only https/roam links go to the system browser', async () => {
    const answers = [
      'https://roamresearch.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'http://x/',
    ].map((url) => (window.webContents.openHandler?.({ url }) as { action: string }).action);
    expect({ answers, external: fake.electron.shell.openExternal.mock.calls.map((c) => c[0]) }).toEqual({
      answers: ['deny', 'deny', 'deny', 'deny'],
      external: ['https://roamresearch.com/'],
    });
  });

  it('IPC from a frame that is not our page is refused', async () => {
    const { isTrustedSender } = await import('../../src-main/shell/ipc-registration.ts');
    const page = 'file:///app/renderer/index.html';
    const verdicts = ['https://evil.example/', 'file:///app/renderer/index.html.evil', '', page].map((url) =>
      isTrustedSender({ senderFrame: { url } } as never, page),
    );
    expect(verdicts).toEqual([false, false, false, true]);
  });

  it('the preload exposes one method per channel and no generic IPC', async () => {
    await import('../../src-main/shell/preload.ts');
    const api = fake.electron.contextBridge.exposeInMainWorld.mock.calls[0]?.[1] as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...requestChannels, 'on'].sort());
  });
});
