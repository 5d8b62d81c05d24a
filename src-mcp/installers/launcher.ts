/** What our client entries launch, and how that reads as a shell command. */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Launcher } from './installer-options.ts';

/** The package and bin names an npx entry asks for (the published package, see package.json). */
const PACKAGE_NAME = 'roam-companion';
const BIN_NAME = 'roam-mcp';

/**
 * npx installs packages into `<npm cache>/_npx/<hash>/node_modules/` (npm's `npxCache` is
 * `join(cache, '_npx')`), which `npm cache clean` or a cache cleaner may delete at any time.
 */
const NPX_CACHE_PATH = /[\\/]_npx[\\/][^\\/]+[\\/]node_modules[\\/]/;

/** The name in the package.json of the package `script` belongs to (`<pkg>/dist/roam-mcp.mjs`). */
function packageNameOf(script: string): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(path.dirname(script), '..', 'package.json'), 'utf8'));
    if (typeof manifest?.name === 'string' && manifest.name) return manifest.name;
  } catch {
    // A copy outside its package: ask npx for the published one.
  }
  return PACKAGE_NAME;
}

/**
 * The standalone CLI's launcher: this Node binary running this copy of `roam-mcp.mjs`, both as
 * absolute paths so clients started without the user's PATH (GUI apps) still find them.
 * `scriptPath` defaults to the running script with symlinks (npm's bin links) resolved.
 * Run from npx's cache, that path would break once the cache is cleared, so the entry asks npx
 * for the package instead: `npx -y -p <package> roam-mcp` (npx's documented form for a bin
 * whose name differs from its package's).
 */
export function standaloneLauncher(scriptPath = process.argv[1] ?? fileURLToPath(import.meta.url)): Launcher {
  let script = path.resolve(scriptPath);
  try {
    script = realpathSync(script);
  } catch {
    // Keep the resolved path; status will report it as missing.
  }
  if (NPX_CACHE_PATH.test(script)) {
    return { command: 'npx', args: ['-y', '-p', packageNameOf(script), BIN_NAME], npxCacheScript: script };
  }
  return { command: process.execPath, args: [script] };
}

/** Why the entry runs npx rather than the running copy, for `install` and its dry run. */
export function npxLauncherNote(launcher: Launcher): string | undefined {
  if (!launcher.npxCacheScript) return undefined;
  return (
    `This roam-mcp runs from npx's cache (${launcher.npxCacheScript}), which npm may clear, so the ` +
    `entry runs \`${[launcher.command, ...launcher.args].join(' ')}\` instead: the client fetches ` +
    'the package through npx when it starts (Node.js and npm must be on its PATH). ' +
    'To launch an installed copy instead, run `npm install -g roam-companion`, then `roam-mcp install` again.'
  );
}

/**
 * The `connect` command that works for the copy that is running, as a person types it: from a
 * clone or an installed package, this Node and this script; from npx's cache, npx for the package.
 */
export function connectCommand(
  launcher: Launcher = standaloneLauncher(),
  platform: NodeJS.Platform = process.platform,
): string {
  return [launcher.command, ...launcher.args, 'connect'].map((arg) => quoteForShell(arg, platform)).join(' ');
}

const POSIX_SAFE = /^[A-Za-z0-9_\-.,/:=@%+]+$/;
const WINDOWS_SAFE = /^[A-Za-z0-9_\-.,/\\:=@+]+$/;

/** Quotes one argument for the user's shell (sh/zsh/bash, or cmd/PowerShell on Windows). */
export function quoteForShell(arg: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return WINDOWS_SAFE.test(arg) ? arg : `"${arg.replace(/"/g, '\\"')}"`;
  return POSIX_SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
