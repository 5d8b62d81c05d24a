/**
 * Where each client keeps its MCP configuration, per platform. Paths are built with the host's
 * `path` because they are read and written on this machine (tests lay out other platforms' homes
 * inside a temp dir).
 */
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';
import type { InstallerOptions } from './installer-options.ts';

/**
 * The MSIX build of Claude Desktop (the Microsoft Store's, and since February 2026 claude.com's
 * installer too) keeps its roaming data inside its package.
 */
const CLAUDE_MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

export interface ConfigLocation {
  /** The config file (it may not exist yet). */
  configPath: string;
  /** The folder whose existence tells that the client is installed. */
  clientDir: string;
  /** False when `clientDir` doesn't exist: the client isn't installed (or never ran). */
  clientDirExists: boolean;
}

type Context = Pick<InstallerOptions, 'home' | 'platform' | 'env'>;

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function absoluteEnv(ctx: Context, name: string): string | undefined {
  const value = (ctx.env ?? process.env)[name];
  return value && path.isAbsolute(value) ? value : undefined;
}

/**
 * Whether `program` is on the PATH of `ctx.env` (with Windows' PATHEXT): how a client installed
 * from npm or a package manager is found before it ever ran and made its folder.
 */
export async function onPath(program: string, ctx: Context): Promise<boolean> {
  const env = ctx.env ?? process.env;
  const windows = (ctx.platform ?? process.platform) === 'win32';
  const dirs = (env.PATH ?? env.Path ?? '').split(windows ? ';' : ':').filter((dir) => path.isAbsolute(dir));
  const endings = windows ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  for (const dir of dirs) {
    for (const ending of endings) {
      const file = path.join(dir, program + ending.toLowerCase());
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      if (
        windows ||
        (await access(file, constants.X_OK).then(
          () => true,
          () => false,
        ))
      )
        return true;
    }
  }
  return false;
}

/** Electron's `appData`: where Claude Desktop and VS Code keep their per-user folders. */
export function appDataDir(ctx: Context): string {
  const platform = ctx.platform ?? process.platform;
  if (platform === 'darwin') return path.join(ctx.home, 'Library', 'Application Support');
  if (platform === 'win32') return absoluteEnv(ctx, 'APPDATA') ?? path.join(ctx.home, 'AppData', 'Roaming');
  return absoluteEnv(ctx, 'XDG_CONFIG_HOME') ?? path.join(ctx.home, '.config');
}

async function located(clientDir: string, fileName: string): Promise<ConfigLocation> {
  return {
    configPath: path.join(clientDir, fileName),
    clientDir,
    clientDirExists: await isDirectory(clientDir),
  };
}

/** `claude_desktop_config.json`; on Windows the MSIX build's folder wins when it exists. */
export async function claudeDesktopLocation(ctx: Context): Promise<ConfigLocation> {
  const platform = ctx.platform ?? process.platform;
  if (platform === 'win32') {
    const localAppData = absoluteEnv(ctx, 'LOCALAPPDATA') ?? path.join(ctx.home, 'AppData', 'Local');
    const msixDir = path.join(
      localAppData,
      'Packages',
      CLAUDE_MSIX_PACKAGE,
      'LocalCache',
      'Roaming',
      'Claude',
    );
    // The MSIX build reads only its virtualised copy, so editing %APPDATA% would have no effect.
    if (await isDirectory(msixDir)) return located(msixDir, 'claude_desktop_config.json');
  }
  return located(path.join(appDataDir(ctx), 'Claude'), 'claude_desktop_config.json');
}

/** `~/.cursor/mcp.json` on every platform. */
export function cursorLocation(ctx: Context): Promise<ConfigLocation> {
  return located(path.join(ctx.home, '.cursor'), 'mcp.json');
}

/**
 * VS Code's user-level `mcp.json` (JSONC), in its default profile. VS Code puts `VSCODE_APPDATA`
 * before the platform folder on every platform (its `userDataPath.ts`).
 */
export function vscodeLocation(ctx: Context): Promise<ConfigLocation> {
  const appData = absoluteEnv(ctx, 'VSCODE_APPDATA') ?? appDataDir(ctx);
  return located(path.join(appData, 'Code', 'User'), 'mcp.json');
}

/**
 * Gemini CLI's user settings, `~/.gemini/settings.json` (JSON with comments); `GEMINI_CLI_HOME`
 * replaces the home it is under (its docs, reference/configuration.md).
 */
export function geminiCliLocation(ctx: Context): Promise<ConfigLocation> {
  return located(path.join(absoluteEnv(ctx, 'GEMINI_CLI_HOME') ?? ctx.home, '.gemini'), 'settings.json');
}

/** Codex's `config.toml` (TOML), in `CODEX_HOME` when set, else `~/.codex` (its docs, Environment variables). */
export function codexLocation(ctx: Context): Promise<ConfigLocation> {
  return located(absoluteEnv(ctx, 'CODEX_HOME') ?? path.join(ctx.home, '.codex'), 'config.toml');
}

/** Claude Code's own state file, read only to report status (`claude mcp add` writes it). */
export async function claudeCodeLocation(ctx: Context): Promise<ConfigLocation> {
  const configDir = absoluteEnv(ctx, 'CLAUDE_CONFIG_DIR');
  if (configDir) return located(configDir, '.claude.json');
  const location = await located(path.join(ctx.home, '.claude'), '.claude.json');
  return { ...location, configPath: path.join(ctx.home, '.claude.json') };
}
