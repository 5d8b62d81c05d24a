/** Where the packaged (or `electron .`) app finds its bundles, icons and store. */
import path from 'node:path';
import type { App } from 'electron';

export interface AppPaths {
  storeDir: string;
  /** The MCP bundle, outside the asar archive so a plain-Node child can run it. */
  mcpServerPath: string;
  preload: string;
  rendererIndex: string;
  assets: string;
  /** What client configs launch: this app in `--mcp` mode. */
  launcher: { command: string; args: string[] };
}

export function appPaths(app: Pick<App, 'getAppPath' | 'getPath' | 'isPackaged'>): AppPaths {
  const root = app.getAppPath();
  return {
    storeDir: app.getPath('userData'),
    mcpServerPath: path.join(root, 'dist', 'roam-mcp.mjs').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1'),
    preload: path.join(root, 'dist', 'main', 'preload.cjs'),
    rendererIndex: path.join(root, 'dist', 'renderer', 'index.html'),
    assets: path.join(root, 'assets'),
    // Unpackaged, the binary is Electron itself and needs the app folder.
    launcher: app.isPackaged
      ? { command: process.execPath, args: ['--mcp'] }
      : { command: process.execPath, args: [root, '--mcp'] },
  };
}
