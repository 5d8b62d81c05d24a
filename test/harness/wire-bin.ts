/**
 * The built bin on the wire: hand-written JSON-RPC lines, so nothing an SDK adds or strips hides
 * what the server sends. `open` starts it in a fresh HOME with one graph from env vars; `legacy`
 * and `modern` open a session of either era (2025-11-25 `initialize`, or 2026-07-28's
 * `server/discover` with the `_meta` envelope sent on every request).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { binCommand, binEnv, newToken, removeHome, tempHome } from './mcp-bin.ts';

export interface WireMessage {
  id?: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export interface WireBin {
  /** Sends a request (with the envelope on a 2026-07-28 session) and resolves with its answer. */
  send(method: string, params?: Record<string, unknown>): Promise<WireMessage>;
  close(): Promise<void>;
}

/** `bin`: another copy of the built bin (default: the repo's dist/roam-mcp.mjs). */
async function open(bin?: string): Promise<{
  raw: (method: string, params: Record<string, unknown>) => Promise<WireMessage>;
  child: ChildProcessWithoutNullStreams;
  home: string;
}> {
  const home = await tempHome();
  const [command, args] = bin ? [process.execPath, [bin]] : binCommand();
  const child = spawn(command, args, {
    env: binEnv(home, { ROAM_GRAPH: 'solo', ROAM_API_TOKEN: newToken() }),
  });
  const waiting = new Map<number, (message: WireMessage) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as WireMessage;
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  let nextId = 1;
  const raw = (method: string, params: Record<string, unknown>) => {
    const id = nextId++;
    return new Promise<WireMessage>((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  };
  return { raw, child, home };
}

function closer(child: ChildProcessWithoutNullStreams, home: string) {
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
    await removeHome(home);
  };
}

export async function legacySession(capabilities: Record<string, unknown> = {}): Promise<WireBin> {
  const { raw, child, home } = await open();
  await raw('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'wire-test', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return { send: (method, params = {}) => raw(method, params), close: closer(child, home) };
}

export async function modernSession(bin?: string): Promise<WireBin> {
  const { raw, child, home } = await open(bin);
  await raw('server/discover', { _meta: MODERN_ENVELOPE });
  return {
    send: (method, params = {}) => raw(method, { ...params, _meta: MODERN_ENVELOPE }),
    close: closer(child, home),
  };
}
