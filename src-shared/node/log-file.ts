/**
 * The rotating log files in the data folder (`logs/roam-mcp.log` for the server, `logs/roam-companion.log`
 * for the tray): each line appended whole with O_APPEND, the file renamed to `.1` once it reaches its
 * cap, so a log keeps at most twice its cap. Best-effort: a log that cannot be written is skipped,
 * never an error. Lines are scrubbed of tokens and HTTP keys before they are written.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { scrubTokens } from '../local-api/local-api-error.ts';

export const LOG_DIR = 'logs';
export const SERVER_LOG = 'roam-mcp.log';
export const TRAY_LOG = 'roam-companion.log';

const DEFAULT_MAX_BYTES = 1024 * 1024;
/** Test-only: a lower cap, so a test reaches rotation with a few lines. */
export const LOG_MAX_BYTES_ENV = 'ROAM_COMPANION_LOG_MAX_BYTES';
/** A longer line is cut: one short write per line keeps other processes' lines whole. */
const MAX_LINE = 4000;

/** The HTTP keys' shape (`KEY_PREFIX` in src-mcp/data-folder/key-store.ts, followed by base64url). */
const KEY_PATTERN = /roam-mcp-key-[A-Za-z0-9_-]+/g;

/** The text without Roam tokens or HTTP keys: what stderr and the log files carry. */
export function scrubSecrets(text: string): string {
  return scrubTokens(text).replace(KEY_PATTERN, 'roam-mcp-key-…');
}

function maxBytes(env: NodeJS.ProcessEnv): number {
  const cap = Number(env[LOG_MAX_BYTES_ENV]);
  return Number.isInteger(cap) && cap > 0 ? cap : DEFAULT_MAX_BYTES;
}

/** The log file's path in a data folder. */
export const logFilePath = (dataDir: string, name: string) => path.join(dataDir, LOG_DIR, name);

function rotate(file: string): void {
  try {
    renameSync(file, `${file}.1`);
  } catch {
    // Another process rotated it first: append to the new file.
  }
}

/**
 * Appends one scrubbed line (with a timestamp) to the log file; rotates it first when the line
 * would take it past its cap. Synchronous, so lines keep their order and nothing is left running.
 */
export function appendLogLine(file: string, line: string, env: NodeJS.ProcessEnv = process.env): void {
  const text = `${new Date().toISOString()} ${scrubSecrets(line).slice(0, MAX_LINE).replace(/\n/g, ' ')}\n`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    // Two processes crossing the cap at once may both rename: the second rename replaces the first's
    // `.1`, losing that older half; no line is ever split (docs/reliability.md).
    if (size > 0 && size + Buffer.byteLength(text) > maxBytes(env)) rotate(file);
    appendFileSync(file, text, { mode: 0o600 });
  } catch {
    // Best-effort: a read-only or full data folder never stops a request or a start.
  }
}
