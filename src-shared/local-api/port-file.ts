/**
 * Port discovery (docs/mcp.md, Configuration): Roam Desktop writes `{"port": N}` to `~/.roam-local-api.json`
 * on startup. Only `port` is read; the removed `last-graph` field is ignored on purpose.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const DEFAULT_PORT = 3333;
export const PORT_FILE_NAME = '.roam-local-api.json';

export function portFilePath(home: string): string {
  return path.join(home, PORT_FILE_NAME);
}

/** The port Roam announced, or 3333 when the file is missing or unreadable. */
export async function readPort(home: string): Promise<number> {
  try {
    const parsed: unknown = JSON.parse(await readFile(portFilePath(home), 'utf8'));
    const port = (parsed as { port?: unknown } | null)?.port;
    if (typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536) return port;
  } catch {
    // Missing or half-written file: fall back to Roam's default port.
  }
  return DEFAULT_PORT;
}
