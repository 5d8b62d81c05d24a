/** What our client entries launch, and how that reads as a shell command. */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Launcher } from './installer-options.ts';

/**
 * The standalone CLI's launcher: this Node binary running this copy of `roam-mcp.mjs`, both as
 * absolute paths so clients started without the user's PATH (GUI apps) still find them.
 * `scriptPath` defaults to the running script with symlinks (npm's bin links) resolved.
 */
export function standaloneLauncher(scriptPath = process.argv[1] ?? fileURLToPath(import.meta.url)): Launcher {
  let script = path.resolve(scriptPath);
  try {
    script = realpathSync(script);
  } catch {
    // Keep the resolved path; status will report it as missing.
  }
  return { command: process.execPath, args: [script] };
}

/** True when the launcher runs from npx's cache, which npm may clear at any time. */
export function isEphemeralLauncher(launcher: Launcher): boolean {
  return [launcher.command, ...launcher.args].some((part) => /[\\/]_npx[\\/]/.test(part));
}

const POSIX_SAFE = /^[A-Za-z0-9_\-.,/:=@%+]+$/;
const WINDOWS_SAFE = /^[A-Za-z0-9_\-.,/\\:=@+]+$/;

/** Quotes one argument for the user's shell (sh/zsh/bash, or cmd/PowerShell on Windows). */
export function quoteForShell(arg: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return WINDOWS_SAFE.test(arg) ? arg : `"${arg.replace(/"/g, '\\"')}"`;
  return POSIX_SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
