/** Tiny fetch helpers for the emulator tests: real HTTP, no client library in between. */
import type { Emulator } from './types.ts';

export interface Reply {
  status: number;
  body: {
    success: boolean;
    result?: unknown;
    apiVersion?: string;
    error?: { code?: string; message: string };
    [key: string]: unknown;
  };
}

/** `POST /api/{graph}[?type=offline]` with an optional Bearer token. */
export async function callAction(
  emulator: Emulator,
  options: {
    graph: string;
    token?: string;
    offline?: boolean;
    action: string;
    args?: unknown[];
    extra?: object;
  },
): Promise<Reply> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  const query = options.offline ? '?type=offline' : '';
  const response = await fetch(`${emulator.url}/api/${encodeURIComponent(options.graph)}${query}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ action: options.action, args: options.args ?? [], ...options.extra }),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

/** A JSON POST to any path, returning status and parsed body. */
export async function postJson(
  emulator: Emulator,
  path: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Reply> {
  const response = await fetch(`${emulator.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}
