/**
 * The manager window: the renderer runs isolated and sandboxed, with no Node, and may neither
 * navigate away nor open new windows (links to the web go through the default browser).
 */
import { BrowserWindow, shell, type BrowserWindowConstructorOptions } from 'electron';

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
    },
  };
}

function isWebLink(url: string): boolean {
  return url.startsWith('https://') || url.startsWith('roam://');
}

export function createManagerWindow(paths: { preload: string; rendererIndex: string }): BrowserWindow {
  const window = new BrowserWindow(managerWindowOptions(paths.preload));
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadFile(paths.rendererIndex);
  return window;
}
