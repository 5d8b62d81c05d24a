/**
 * Files file_upload never reads, whatever folder the user allowed (docs/reliability.md, Uploads):
 * our config and Roam's port file, our data folder, the tray's store and key. Every platform's
 * location is listed on every platform, and the XDG/APPDATA variables' folders as well, so the
 * answer does not depend on the environment this process happened to inherit.
 *
 * The platform's application-data roots (~/Library, AppData), where other apps keep their tokens,
 * are refused too unless the user allowed a folder inside one of them (e.g. iCloud Drive, which
 * lives in ~/Library).
 */
import path from 'node:path';
import { dataDir } from '../../src-shared/node/data-dir.ts';

/** Electron's userData folder name for the tray (productName), and the package name in dev runs. */
const TRAY_FOLDERS = ['Roam Companion', 'roam-companion'];

function envFolders(env: NodeJS.ProcessEnv): string[] {
  const keys = ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'APPDATA', 'LOCALAPPDATA'];
  return keys.flatMap((key) => {
    const value = env[key];
    return value && path.isAbsolute(value) ? [value] : [];
  });
}

export function protectedPaths(home: string, env: NodeJS.ProcessEnv): { never: string[]; appData: string[] } {
  const configRoots = [
    path.join(home, '.config'),
    path.join(home, 'Library', 'Application Support'),
    path.join(home, 'AppData', 'Roaming'),
  ];
  const dataFolders = (['darwin', 'win32', 'linux'] as const).map((platform) =>
    dataDir({ env: {}, home, platform }),
  );
  const never = [
    path.join(home, '.roam-tools.json'),
    path.join(home, '.roam-mcp.json'),
    path.join(home, '.roam-local-api.json'),
    ...configRoots.flatMap((root) => TRAY_FOLDERS.map((name) => path.join(root, name))),
    ...dataFolders,
    ...envFolders(env).flatMap((root) => TRAY_FOLDERS.map((name) => path.join(root, name))),
    dataDir({ env, home }),
  ];
  const appData = [path.join(home, 'Library'), path.join(home, 'AppData'), ...envFolders(env)];
  return { never, appData };
}
