/**
 * Claude Code over HTTP without its key in a command line: the key waits in a file of the data
 * folder (0600, in a 0700 folder), and the entry's `headersHelper` — a command Claude Code runs in
 * its shell at each connection, whose stdout is a JSON object of headers (its docs, "Use dynamic
 * headers") — prints it. So `claude mcp add-json` carries only the file's path: no key in argv,
 * in shell history, or in `~/.claude.json`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** In the data folder: written by `install claude-code --transport http` (claude-code.ts). */
export const HEADERS_FILE = 'claude-code-headers.json';

/** The helper command: Claude Code runs it in a POSIX shell everywhere (Git Bash on Windows). */
export function headersHelperFor(file: string): string {
  return `cat '${file.replace(/'/g, `'\\''`)}'`;
}

/** The file our helper command reads, when `helper` is one; undefined for anyone else's helper. */
export function headersFileOf(helper: unknown): string | undefined {
  if (typeof helper !== 'string') return undefined;
  const quoted = /^cat '((?:[^']|'\\'')+)'$/.exec(helper.trim())?.[1]?.replace(/'\\''/g, "'");
  return quoted && path.basename(quoted) === HEADERS_FILE ? quoted : undefined;
}

/** The key in a headers file of ours; undefined when it is gone or holds none. */
export async function keyInHeadersFile(file: string): Promise<string | undefined> {
  try {
    const headers: unknown = JSON.parse(await readFile(file, 'utf8'));
    const value = (headers as { Authorization?: unknown } | null)?.Authorization;
    return typeof value === 'string' ? /^Bearer\s+(\S+)$/.exec(value.trim())?.[1] : undefined;
  } catch {
    return undefined;
  }
}
