/**
 * The one fake of `electron` (no Electron binary runs in the tests; the real module never loads):
 * the app, windows, tray, menus, IPC, keychain, shell, clipboard, notifications and message boxes
 * the tray's Electron shell uses, recording what the shell did. A test file fakes the modules with
 *
 *   vi.mock('electron', async () => (await import('./fake-electron.ts')).electronModule());
 *   vi.mock('electron-store', async () => (await import('./fake-electron.ts')).electronStoreModule());
 *
 * and reads `fake` from this module: the mock factory and the test file share one module
 * registry, so they see the same instance. Such files run with a module registry of their own
 * (vitest.config.ts, OWN_MODULES).
 */
import { vi } from 'vitest';
import { STORE_NAME } from '../../src-main/core/store/store-file.ts';

type Listener = (...args: unknown[]) => unknown;

/** A window's webContents: its event handlers, window-open handler and permission handlers. */
export interface FakeContents {
  handlers: Map<string, Listener>;
  openHandler?: Listener;
  permissions: { request?: Listener; check?: Listener };
  on: (event: string, fn: Listener) => void;
  once: (event: string, fn: Listener) => void;
  setWindowOpenHandler: (fn: Listener) => void;
  send: ReturnType<typeof vi.fn>;
  isDestroyed: () => boolean;
  session: {
    setPermissionRequestHandler: ReturnType<typeof vi.fn>;
    setPermissionCheckHandler: ReturnType<typeof vi.fn>;
  };
}

const appListeners = new Map<string, Listener[]>();
/** What app.getPath and app.getAppPath answer (a test points them at its temp folders). */
const state = { appRoot: '', userData: '', home: '' };
const windows: BrowserWindow[] = [];
// A reversible stand-in for the OS keychain: the plaintext never appears in the ciphertext.
const xor = (buffer: Buffer) => Buffer.from(buffer.map((b) => b ^ 0x5a));

class BrowserWindow {
  static created = 0;
  webContents: FakeContents;
  constructor(readonly options: Record<string, unknown>) {
    const handlers = new Map<string, Listener>();
    const contents: FakeContents = {
      handlers,
      permissions: {},
      on: (event, fn) => void handlers.set(event, fn),
      once: (event, fn) => void handlers.set(event, fn),
      setWindowOpenHandler: (fn) => void (contents.openHandler = fn),
      send: vi.fn(),
      isDestroyed: () => false,
      session: {
        setPermissionRequestHandler: vi.fn((fn: Listener) => void (contents.permissions.request = fn)),
        setPermissionCheckHandler: vi.fn((fn: Listener) => void (contents.permissions.check = fn)),
      },
    };
    this.webContents = contents;
    windows.push(this);
    BrowserWindow.created++;
  }
  private readonly listeners = new Map<string, Listener[]>();
  private destroyed = false;
  once() {}
  on(event: string, fn: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
  }
  show() {}
  focus() {}
  isDestroyed() {
    return this.destroyed;
  }
  /** Closed for good, as when the person closes it: its 'closed' listeners run. */
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
  }
  private emit(event: string) {
    for (const fn of this.listeners.get(event) ?? []) fn();
  }
  loadFile = vi.fn(async (_file: string) => {});
}

class Tray {
  static created = 0;
  constructor() {
    Tray.created++;
  }
  setToolTip() {}
  setContextMenu() {}
  destroy() {}
}

/** Every notification shown, newest last: its options, whether it was closed, its click listener. */
class Notification {
  static shown: Notification[] = [];
  static isSupported = () => true;
  closed = false;
  private readonly clicks: Listener[] = [];
  constructor(readonly options: { title: string; body: string }) {}
  on(event: string, fn: Listener) {
    if (event === 'click') this.clicks.push(fn);
  }
  show() {
    Notification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
  click() {
    for (const fn of this.clicks) fn();
  }
}

/** A message box the shell opened: the person answers with `answer(i)`; its signal closes it as Escape would. */
interface FakeMessageBox {
  parent: unknown;
  options: { message: string; detail?: string; buttons?: string[]; cancelId?: number; signal?: AbortSignal };
  closed: boolean;
  answer(response: number): void;
}
const messageBoxes: FakeMessageBox[] = [];
const dialog = {
  showMessageBox: vi.fn(
    (parent: unknown, options?: FakeMessageBox['options']) =>
      new Promise<{ response: number; checkboxChecked: boolean }>((resolve) => {
        const opts = options ?? (parent as FakeMessageBox['options']);
        const box: FakeMessageBox = {
          parent: options ? parent : undefined,
          options: opts,
          closed: false,
          answer(response) {
            if (box.closed) return;
            box.closed = true;
            resolve({ response, checkboxChecked: false });
          },
        };
        opts.signal?.addEventListener('abort', () => box.answer(opts.cancelId ?? 0));
        messageBoxes.push(box);
      }),
  ),
};

const electron = {
  app: {
    getPath: (name: string) => (name === 'home' ? state.home : state.userData),
    getAppPath: () => state.appRoot,
    getVersion: () => '0.1.0',
    isPackaged: false,
    whenReady: async () => {},
    exit: vi.fn(),
    quit: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => true),
    setAsDefaultProtocolClient: vi.fn(),
    setLoginItemSettings: vi.fn(),
    dock: { hide: vi.fn() },
    on: (event: string, fn: Listener) =>
      void appListeners.set(event, [...(appListeners.get(event) ?? []), fn]),
  },
  ipcMain: { handle: vi.fn(), on: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
  contextBridge: { exposeInMainWorld: vi.fn() },
  safeStorage: {
    isAsyncEncryptionAvailable: vi.fn(async () => true),
    encryptStringAsync: vi.fn(async (plain: string) => xor(Buffer.from(plain))),
    decryptStringAsync: vi.fn(async (cipher: Buffer) => ({
      result: xor(cipher).toString(),
      shouldReEncrypt: false,
    })),
    getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
  },
  shell: { openExternal: vi.fn(async (_url: string) => {}) },
  clipboard: { writeText: vi.fn((_text: string) => {}) },
  Tray,
  Menu: { buildFromTemplate: vi.fn((template: unknown) => template) },
  nativeImage: { createFromPath: vi.fn(() => ({ setTemplateImage() {} })) },
  BrowserWindow,
  Notification,
  dialog,
};

/** The fake and what it recorded: app listeners by event, windows in creation order. */
export const fake = { electron, state, appListeners, windows, messageBoxes };

/** The `electron` module, for `vi.mock('electron', …)`. */
export function electronModule() {
  return { default: electron, ...electron };
}

/**
 * The `electron-store` module, for `vi.mock('electron-store', …)`: electron-store is conf plus
 * `import 'electron'` from node_modules (outside vi.mock's reach), so it is stood in with conf
 * itself, the same store and file format.
 */
export async function electronStoreModule() {
  const { default: Conf } = await import('conf');
  return {
    default: class extends Conf<Record<string, unknown>> {
      constructor({ name, ...options }: { name?: string; cwd: string }) {
        super({ ...options, configName: name ?? STORE_NAME });
      }
    },
  };
}

/** Forgets the windows, trays and app listeners of the last test (mock calls: vi.clearAllMocks). */
export function resetFakeElectron(): void {
  appListeners.clear();
  windows.length = 0;
  BrowserWindow.created = 0;
  Tray.created = 0;
  Notification.shown.length = 0;
  messageBoxes.length = 0;
}
