/**
 * The manager window: the renderer runs isolated and sandboxed, with no Node, may neither
 * navigate away (no navigation, redirect or frame navigation) nor open new windows (links to the
 * web go through the default browser), and is granted no permission (camera, notifications,
 * clipboard, ...): it needs none.
 */
import { BrowserWindow, shell, type BrowserWindowConstructorOptions, type Session } from 'electron';

export function managerWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 980,
    height: 720,
    minWidth: 720,
    minHeight: 520,
    show: false,
    title: 'Roam Companion',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // A middle click on a link must not open anything (Electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  };
}

function isWebLink(url: string): boolean {
  return url.startsWith('https://') || url.startsWith('roam://');
}

/** Every permission request and check is answered no. */
export function denyAllPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
) {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

export function createManagerWindow(paths: { preload: string; rendererIndex: string }): BrowserWindow {
  const window = new BrowserWindow(managerWindowOptions(paths.preload));
  denyAllPermissions(window.webContents.session);
  const stay = (event: { preventDefault(): void }) => event.preventDefault();
  window.webContents.on('will-navigate', stay);
  window.webContents.on('will-redirect', stay);
  window.webContents.on('will-frame-navigate', stay);
  window.webContents.on('will-attach-webview', stay);
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadFile(paths.rendererIndex);
  return window;
}
