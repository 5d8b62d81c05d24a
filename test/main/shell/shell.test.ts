// The Electron shell with `electron` faked (test/harness/fake-electron.ts; no binary can run here);
// everything else is real.
import { copyFile, mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventChannels, requestChannels } from '../../../src-shared/constants.ts';
import type { AppStatus, ClientView, GraphView } from '../../../src-shared/ipc-contract.ts';
import { TrayStore, createConfBackend } from '../../../src-main/core/store/tray-store.ts';
import { storageWarning } from '../../../src-main/core/store/storage-warning.ts';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { fake, resetFakeElectron } from '../../harness/fake-electron.ts';
import { TOKEN_PATTERN, repoRoot, startCore, tempDirs, waitFor } from '../helpers.ts';

vi.mock('electron', async () => (await import('../../harness/fake-electron.ts')).electronModule());
vi.mock('electron-store', async () => (await import('../../harness/fake-electron.ts')).electronStoreModule());

let dirs: Awaited<ReturnType<typeof tempDirs>>;
beforeEach(async () => {
  dirs = await tempDirs();
  fake.state.home = dirs.home;
  fake.state.userData = dirs.storeDir;
  fake.state.appRoot = path.join(dirs.home, 'app');
  // The tray reads the change journal at start: this test's own, never the machine's.
  vi.stubEnv('ROAM_COMPANION_DATA_DIR', path.join(dirs.home, 'data'));
  resetFakeElectron();
  vi.clearAllMocks();
});
afterEach(async () => {
  for (const quit of fake.appListeners.get('before-quit') ?? []) quit();
  vi.unstubAllEnvs();
  await dirs.cleanup();
});

describe('ipc registration', () => {
  const rendererUrl = 'file:///Applications/Roam%20Companion.app/dist/renderer/index.html';
  let core: TrayCore;
  beforeEach(() => ({ core } = startCore(dirs)));
  afterEach(() => core.close());

  it('registers exactly the contract channels and refuses a foreign sender frame', async () => {
    const { registerIpcHandlers } = await import('../../../src-main/shell/ipc-registration.ts');
    const handlers = new Map<string, (event: unknown, input?: unknown) => Promise<unknown>>();
    registerIpcHandlers(
      { handle: (channel: string, fn: never) => void handlers.set(channel, fn) } as never,
      core,
      rendererUrl,
    );
    expect([...handlers.keys()].sort()).toEqual([...requestChannels].sort());

    const listGraphs = handlers.get('graphs:list')!;
    for (const url of [
      'https://evil.example/',
      'file:///tmp/other.html',
      '',
      'file:///Applications/x/index.html',
    ]) {
      expect(await listGraphs({ senderFrame: { url } })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN_SENDER' },
      });
    }
    expect(await listGraphs({ senderFrame: null })).toMatchObject({ ok: false });
    expect(await listGraphs({ senderFrame: { url: `${rendererUrl}#/graphs` } })).toEqual({
      ok: true,
      result: [],
    });
    // Handler errors cross as data with their code.
    expect(
      await handlers.get('graphs:add')!({ senderFrame: { url: rendererUrl } }, { name: '' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('Graph name is required') },
    });
  });
});

describe('preload', () => {
  it('exposes exactly one method per contract channel plus on, as window.roamCompanion', async () => {
    await import('../../../src-main/shell/preload.ts');
    const [[key, api]] = fake.electron.contextBridge.exposeInMainWorld.mock.calls as unknown as [
      [string, Record<string, unknown>],
    ];
    expect(key).toBe('roamCompanion');
    expect(Object.keys(api).sort()).toEqual([...requestChannels, 'on'].sort());

    const typed = api as unknown as Record<string, (input?: unknown) => Promise<unknown>> & {
      on(event: string, fn: (p: unknown) => void): () => void;
    };
    fake.electron.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, result: ['x'] });
    await expect(typed['graphs:list']!()).resolves.toEqual(['x']);
    expect(fake.electron.ipcRenderer.invoke).toHaveBeenCalledWith('graphs:list', undefined);
    fake.electron.ipcRenderer.invoke.mockResolvedValueOnce({
      ok: false,
      error: { code: 'VALIDATION', message: 'clash' },
    });
    await expect(typed['graphs:add']!({ name: 'a' })).rejects.toMatchObject({
      message: 'clash',
      code: 'VALIDATION',
    });

    expect(() => typed.on('ipc:anything', () => {})).toThrow(/Unknown event/);
    const off = typed.on(eventChannels[0]!, () => {});
    off();
    expect(fake.electron.ipcRenderer.removeListener).toHaveBeenCalledTimes(1);
  });
});

describe('manager window', () => {
  it('is isolated, sandboxed, without Node, and can neither navigate nor open windows', async () => {
    const { createManagerWindow, managerWindowOptions } =
      await import('../../../src-main/shell/main-window.ts');
    expect(managerWindowOptions('/p/preload.cjs').webPreferences).toMatchObject({
      preload: '/p/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
    });
    createManagerWindow({ preload: '/p/preload.cjs', rendererIndex: '/p/index.html' });
    const contents = fake.windows[0]!.webContents as unknown as {
      handlers: Map<string, (e: { preventDefault(): void }) => void>;
      openHandler(details: { url: string }): { action: string };
    };
    const preventDefault = vi.fn();
    contents.handlers.get('will-navigate')!({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    expect(contents.openHandler({ url: 'https://roamresearch.com' })).toEqual({ action: 'deny' });
    expect(contents.openHandler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.electron.shell.openExternal).toHaveBeenCalledTimes(1);
    expect(fake.electron.shell.openExternal).toHaveBeenCalledWith('https://roamresearch.com');
  });
});

describe('safeStorage secret box', () => {
  it('uses the async API and reports the Linux backend; basic_text gets a warning', async () => {
    const { createSafeStorageSecretBox } = await import('../../../src-main/shell/safe-storage-secret-box.ts');
    const box = await createSafeStorageSecretBox(fake.electron.safeStorage as never, 'linux');
    expect(box.backend).toBe('gnome_libsecret');
    expect(await box.decrypt(await box.encrypt('secret'))).toBe('secret');
    expect(fake.electron.safeStorage.encryptStringAsync).toHaveBeenCalledWith('secret');
    expect((await createSafeStorageSecretBox(fake.electron.safeStorage as never, 'darwin')).backend).toBe(
      'keychain',
    );
    fake.electron.safeStorage.getSelectedStorageBackend.mockReturnValueOnce('basic_text');
    const weak = await createSafeStorageSecretBox(fake.electron.safeStorage as never, 'linux');
    expect(storageWarning(weak.backend)).toMatch(/GNOME Keyring or KWallet/);
    fake.electron.safeStorage.isAsyncEncryptionAvailable.mockResolvedValueOnce(false);
    await expect(createSafeStorageSecretBox(fake.electron.safeStorage as never, 'linux')).rejects.toThrow(
      /keychain/,
    );
  });
});

/** Every tray menu action, each a mock to see which one a click reached. */
const trayActions = () => ({
  openManager: vi.fn(),
  openActivity: vi.fn(),
  requestToken: vi.fn(),
  openRoam: vi.fn(),
  connectClient: vi.fn(),
  retryHttpServer: vi.fn(),
  quit: vi.fn(),
});

describe('tray menu and deep links', () => {
  it('shows each graph with token state and access level, and Roam’s state', async () => {
    const { trayMenuTemplate } = await import('../../../src-main/shell/system-tray.ts');
    const graph = (nickname: string, state: GraphView['token']['state']): GraphView => ({
      id: `hosted:${nickname}`,
      name: nickname,
      type: 'hosted',
      nickname,
      accessLevel: 'full',
      enabled: true,
      token: { state },
    });
    const actions = trayActions();
    const down = trayMenuTemplate(
      [graph('Work', 'revoked'), graph('Home', 'blocked')],
      {
        roam: { running: false, port: 3333, checkedAt: 0 },
        mcpSessions: 2,
      },
      actions,
    );
    const labels = down.map((item) => item.label ?? item.type);
    expect(labels).toEqual(
      expect.arrayContaining([
        'Roam Desktop is not running — Open Roam',
        '2 AI client sessions connected',
        'Work — token revoked, full',
        'Home — blocked in Roam, full',
        'Open Roam Companion…',
        'Connect an AI client…',
        'Quit Roam Companion',
      ]),
    );
    (down[0]!.click as () => void)();
    expect(actions.openRoam).toHaveBeenCalled();
    const up = trayMenuTemplate(
      [graph('Work', 'missing')],
      { roam: { running: true, port: 4444, checkedAt: 0 }, mcpSessions: 1 },
      actions,
    );
    expect(up[0]!.label).toBe('Roam Desktop: running (port 4444)');
    const request = (
      up.find((i) => i.label?.startsWith('Work'))!.submenu as Array<{ label: string; click(): void }>
    )[1]!;
    request.click();
    expect(actions.requestToken).toHaveBeenCalledWith('hosted:Work');
  });

  it('says how many changes agents made today and opens Activity', async () => {
    const { trayMenuTemplate } = await import('../../../src-main/shell/system-tray.ts');
    const actions = trayActions();
    const menu = trayMenuTemplate([], undefined, actions, 3);
    const entry = menu.find((item) => item.label === 'Agent activity: 3 changes today…')!;
    (entry.click as () => void)();
    expect(actions.openActivity).toHaveBeenCalled();
    expect(trayMenuTemplate([], undefined, actions, 1).map((i) => i.label)).toContain(
      'Agent activity: 1 change today…',
    );
  });

  it("shows the HTTP server's state, and one that waits to restart can be tried again now", async () => {
    const { trayMenuTemplate } = await import('../../../src-main/shell/system-tray.ts');
    const actions = trayActions();
    const roam = { running: true, port: 4444, checkedAt: 0 };
    const httpLine = (http?: AppStatus['http']) =>
      trayMenuTemplate([], { roam, mcpSessions: 0, ...(http ? { http } : {}) }, actions).find((item) =>
        item.label?.startsWith('HTTP server'),
      );
    expect(httpLine()).toBeUndefined();
    expect(httpLine({ state: 'serving', url: 'http://127.0.0.1:39017/mcp' })).toEqual({
      label: 'HTTP server: serving at 127.0.0.1:39017',
      enabled: false,
    });
    expect(httpLine({ state: 'starting' })).toEqual({ label: 'HTTP server: starting…', enabled: false });
    expect(httpLine({ state: 'stopped' })).toEqual({ label: 'HTTP server: stopped', enabled: false });

    const retryAt = Date.UTC(2026, 0, 2, 3, 4, 5);
    const waiting = httpLine({ state: 'restarting', why: 'stopped unexpectedly', retryAt })!;
    expect(waiting.label).toBe(
      `HTTP server: restarting, next try at ${new Date(retryAt).toLocaleTimeString()}`,
    );
    const [why, tryNow] = waiting.submenu as Array<{ label: string; enabled?: boolean; click?(): void }>;
    expect(why).toEqual({ label: 'It stopped unexpectedly', enabled: false });
    expect(actions.retryHttpServer).not.toHaveBeenCalled();
    tryNow!.click!();
    expect(actions.retryHttpServer).toHaveBeenCalledOnce();
  });

  it('parses roam-companion:// graph links and ignores anything else', async () => {
    const { graphIdFromDeepLink } = await import('../../../src-main/shell/deep-links.ts');
    expect(graphIdFromDeepLink('roam-companion://graph/offline/my%20notes')).toBe('offline:my notes');
    expect(graphIdFromDeepLink('roam-companion://graph/hosted/work')).toBe('hosted:work');
    expect(graphIdFromDeepLink('roam-companion://graph/other/work')).toBeUndefined();
    expect(graphIdFromDeepLink('https://graph/hosted/work')).toBeUndefined();
    expect(graphIdFromDeepLink('not a url')).toBeUndefined();
  });
});

describe('app modes', () => {
  it('--mcp: no tray, no window, no single-instance lock; the child gets the decrypted config over IPC', async () => {
    await mkdir(path.join(fake.state.appRoot, 'dist'), { recursive: true });
    await copyFile(
      path.join(repoRoot, 'test/main/fixtures/config-recorder.mjs'),
      path.join(fake.state.appRoot, 'dist/roam-mcp.mjs'),
    );
    const { createSafeStorageSecretBox } = await import('../../../src-main/shell/safe-storage-secret-box.ts');
    const store = new TrayStore(
      createConfBackend(dirs.storeDir),
      dirs.storeDir,
      await createSafeStorageSecretBox(fake.electron.safeStorage as never, 'linux'),
    );
    const token = 'roam-graph-local-token-SHELLxSHELLxSHELLxSHELLx999';
    await store.update(
      (d) => void d.graphs.push({ name: 'work', type: 'hosted', nickname: 'Work', accessLevel: 'full' }),
    );
    await store.saveToken({ name: 'work', type: 'hosted' }, token, 'full');
    expect(await readFile(store.path, 'utf8')).not.toMatch(TOKEN_PATTERN);

    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.', '--mcp']);
    expect(fake.electron.app.exit).toHaveBeenCalledWith(0);
    const received = JSON.parse(
      await readFile(path.join(fake.state.appRoot, 'dist/received.json'), 'utf8'),
    ) as {
      message: { graphs: Array<{ name: string; token?: string }>; showsProposals?: boolean };
      flag: string;
      argv: string[];
    };
    expect(received.message.graphs).toEqual([
      expect.objectContaining({ name: 'work', nickname: 'Work', token }),
    ]);
    expect(received.flag).toBe('1');
    expect(received.argv.join(' ')).not.toMatch(TOKEN_PATTERN);
    // Its waiting proposals are asked here (approval-boxes.ts), whose window closing is not the end.
    expect(received.message.showsProposals).toBe(true);
    expect(fake.appListeners.get('window-all-closed')).toHaveLength(1);
    expect(fake.electron.Tray.created).toBe(0);
    expect(fake.electron.BrowserWindow.created).toBe(0);
    expect(fake.electron.app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(fake.electron.ipcMain.handle).not.toHaveBeenCalled();
    // The session was counted while it ran and removed at exit.
    expect(await readdir(path.join(dirs.storeDir, 'sessions'))).toEqual([]);
  });

  it('tray mode: takes the single-instance lock, creates the tray, registers IPC, opens the manager on first run', async () => {
    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.']);
    expect(fake.electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(fake.electron.app.dock.hide).toHaveBeenCalled();
    expect(fake.electron.Tray.created).toBe(1);
    expect(fake.electron.ipcMain.handle.mock.calls.map(([channel]) => channel).sort()).toEqual(
      [...requestChannels].sort(),
    );
    expect(fake.electron.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('roam-companion');
    expect(fake.electron.BrowserWindow.created).toBe(1);
    const loaded = fake.windows[0] as unknown as { loadFile: { mock: { calls: string[][] } } };
    expect(loaded.loadFile.mock.calls[0]![0]).toBe(path.join(fake.state.appRoot, 'dist/renderer/index.html'));
    expect(pathToFileURL(path.join(fake.state.appRoot, 'dist/renderer/index.html')).href).toMatch(/^file:/);
  });

  it("tray mode: the menu shows the real core's HTTP server, which cannot start here (no bundle), and why", async () => {
    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.']);
    type Item = { label?: string; submenu?: Item[]; click?: () => void };
    const menus = fake.electron.Menu.buildFromTemplate.mock.calls as unknown as Array<[Item[]]>;
    const waiting = await waitFor(
      () => menus.at(-1)![0].find((i) => i.label?.startsWith('HTTP server: restarting, next try at')),
      20_000,
    );
    expect(waiting.submenu!.map((i) => i.label)).toEqual(['It stopped unexpectedly', 'Try now']);
  });

  it("tray mode: Claude Code's command is copied with its new key by main's clipboard; the renderer's answer has no key", async () => {
    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.']);
    const handlers = new Map(
      fake.electron.ipcMain.handle.mock.calls as unknown as Array<
        [string, (event: unknown, input?: unknown) => Promise<unknown>]
      >,
    );
    const fromOurPage = {
      senderFrame: { url: pathToFileURL(path.join(fake.state.appRoot, 'dist/renderer/index.html')).href },
    };
    const key = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;
    const list = (await handlers.get('clients:list')!(fromOurPage)) as { result: ClientView[] };
    const row = list.result.find((c) => c.id === 'claude-code')!;
    expect(row.command).toContain('"headersHelper":"cat ');
    expect(JSON.stringify(list)).not.toMatch(key);

    const reply = await handlers.get('clients:copy-command')!(fromOurPage, { id: 'claude-code' });
    expect(reply).toEqual({ ok: true, result: { copied: true, keyName: 'claude-code' } });
    const written = fake.electron.clipboard.writeText.mock.calls.map(([text]) => text);
    expect(written).toHaveLength(1);
    expect(written[0]).toBe(row.command);
    expect(written[0]).not.toMatch(key);
  });

  it('deep links from a second instance or open-url show the graph in the manager', async () => {
    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.']);
    const contents = fake.windows[0]!.webContents as unknown as { send: ReturnType<typeof vi.fn> };
    fake.appListeners.get('second-instance')![0]!({}, [
      'electron',
      'roam-companion://graph/offline/my%20notes',
    ]);
    expect(contents.send).toHaveBeenCalledWith('app:navigate', { graphId: 'offline:my notes' });
    fake.appListeners.get('open-url')![0]!({ preventDefault() {} }, 'roam-companion://graph/hosted/work');
    expect(contents.send).toHaveBeenCalledWith('app:navigate', { graphId: 'hosted:work' });
  });

  it("the tray menu's Agent activity entry shows the manager on Activity", async () => {
    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.']);
    const contents = fake.windows[0]!.webContents as unknown as { send: ReturnType<typeof vi.fn> };
    const menus = fake.electron.Menu.buildFromTemplate.mock.calls as unknown as Array<
      [Array<{ label?: string; click?: () => void }>]
    >;
    const entry = menus.at(-1)![0].find((item) => item.label?.startsWith('Agent activity: 0 changes today'));
    entry!.click!();
    expect(contents.send).toHaveBeenCalledWith('activity:show', {});
  });

  it('hostile deep links at start, from a second instance or open-url are ignored and logged, never thrown', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const { main } = await import('../../../src-main/shell/app-mode.ts');
      await expect(main(['electron', '.', 'roam-companion://graph/hosted/%'])).resolves.toBeUndefined();
      const contents = fake.windows[0]!.webContents as unknown as { send: ReturnType<typeof vi.fn> };
      const hostile = [
        'roam-companion://graph/hosted/%',
        'roam-companion://graph/hosted/%E0%A4%A',
        'roam-companion://x/%',
      ];
      for (const url of hostile) {
        expect(() => fake.appListeners.get('second-instance')![0]!({}, ['electron', url])).not.toThrow();
        expect(() => fake.appListeners.get('open-url')![0]!({ preventDefault() {} }, url)).not.toThrow();
      }
      expect(contents.send).not.toHaveBeenCalledWith('app:navigate', expect.anything());
      expect(stderr.mock.calls.map(([line]) => String(line)).join('')).toMatch(
        /ignored the link roam-companion:\/\/graph\/hosted\/%/,
      );
      // A good link afterwards still works.
      fake.appListeners.get('open-url')![0]!({ preventDefault() {} }, 'roam-companion://graph/hosted/work');
      expect(contents.send).toHaveBeenCalledWith('app:navigate', { graphId: 'hosted:work' });
    } finally {
      stderr.mockRestore();
    }
  });

  it('a second tray instance quits without creating anything', async () => {
    fake.electron.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    const { main } = await import('../../../src-main/shell/app-mode.ts');
    await main(['electron', '.']);
    expect(fake.electron.app.quit).toHaveBeenCalled();
    expect(fake.electron.Tray.created).toBe(0);
    expect(fake.electron.ipcMain.handle).not.toHaveBeenCalled();
  });
});

it('waitFor helper is bounded', async () => {
  await expect(waitFor(() => undefined, 50)).rejects.toThrow(/not met/);
});
