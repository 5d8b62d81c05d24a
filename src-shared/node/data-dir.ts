/**
 * Our own data folder, shared by every roam-mcp on the machine (standalone, the tray's `--mcp`
 * children, the demo) and the tray: the change journal and the persisted link indexes live here.
 * Private: the folder is 0700 and every file in it 0600. Never a token in it.
 *
 * ROAM_COMPANION_DATA_DIR overrides the platform default; the tray passes the folder it uses to
 * its children that way, so parent and child agree whatever their XDG variables say.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const DATA_DIR_ENV = 'ROAM_COMPANION_DATA_DIR';

const FOLDER = 'roam-companion';

export interface DataDirOptions {
  env?: NodeJS.ProcessEnv;
  home?: string;
  platform?: NodeJS.Platform;
}

/** The data folder's path (not created). */
export function dataDir(options: DataDirOptions = {}): string {
  const env = options.env ?? process.env;
  const override = env[DATA_DIR_ENV];
  if (override && path.isAbsolute(override)) return override;
  const home = options.home ?? os.homedir();
  switch (options.platform ?? process.platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', FOLDER);
    case 'win32':
      return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), FOLDER);
    default: {
      // The XDG spec ignores a relative XDG_DATA_HOME.
      const xdg = env.XDG_DATA_HOME;
      return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), FOLDER);
    }
  }
}

/** `<data folder>/<sub>`, created (0700) if missing; the folder's mode is never widened. */
export async function ensureDataSubdir(sub: string, options: DataDirOptions = {}): Promise<string> {
  const dir = path.join(dataDir(options), sub);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
