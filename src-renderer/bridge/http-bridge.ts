/**
 * The browser preview's bridge: the same typed RoamCompanionApi as the Electron preload, spoken
 * over HTTP to src-main/preview/server.ts (`POST /ipc/<channel>`, events via `GET /events` SSE).
 */
import { eventChannels, requestChannels, type EventChannel } from '../../src-shared/constants.ts';
import type { EventPayloads, IpcErrorPayload, RoamCompanionApi } from '../../src-shared/ipc-contract.ts';
import { BridgeError } from './bridge-error.ts';

export interface HttpBridgeOptions {
  /** Origin of the preview server; '' = same origin as the page. */
  baseUrl?: string;
  /** The preview's per-run key, from the page URL (preview-key.ts); sent with every call. */
  key?: string;
  fetchImpl?: typeof fetch;
  EventSourceImpl?: typeof EventSource;
  /** Called when the event stream comes back after a drop: events may have been missed. */
  onReconnect?(): void;
  /** Called when the event stream drops (the preview server stopped?): what is shown may be stale. */
  onDisconnect?(): void;
}

type Listener = (payload: unknown) => void;

export function createHttpBridge(options: HttpBridgeOptions = {}): RoamCompanionApi {
  const baseUrl = options.baseUrl ?? '';
  const fetchImpl = options.fetchImpl ?? fetch.bind(globalThis);
  const listeners = new Map<EventChannel, Set<Listener>>();
  let source: EventSource | undefined;

  async function call(channel: string, input: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/ipc/${channel}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        },
        body: input === undefined ? '' : JSON.stringify(input),
      });
    } catch {
      throw new BridgeError(
        'PREVIEW_UNREACHABLE',
        'The preview server is not reachable. Check that the demo (npm run demo) is still running, then reload this page.',
      );
    }
    if (response.status === 204) return undefined;
    const text = await response.text();
    const body = parseJson(text);
    if (!response.ok) {
      const error = body as Partial<IpcErrorPayload> | undefined;
      throw new BridgeError(
        error?.code ?? `HTTP_${response.status}`,
        error?.message ?? `The preview server answered ${response.status}. Reload the page and try again.`,
      );
    }
    return body;
  }

  // One EventSource for every listener, opened on first subscription.
  function ensureSource(): void {
    if (source) return;
    const EventSourceImpl = options.EventSourceImpl ?? EventSource;
    const query = options.key ? `?key=${encodeURIComponent(options.key)}` : '';
    source = new EventSourceImpl(`${baseUrl}/events${query}`);
    let dropped = false;
    source.addEventListener('error', () => {
      if (!dropped) options.onDisconnect?.();
      dropped = true;
    });
    source.addEventListener('open', () => {
      if (dropped) options.onReconnect?.();
      dropped = false;
    });
    for (const channel of eventChannels) {
      source.addEventListener(channel, (event) => {
        const payload: unknown = JSON.parse((event as MessageEvent<string>).data);
        for (const listener of listeners.get(channel) ?? []) listener(payload);
      });
    }
  }

  const api: Record<string, unknown> = {};
  for (const channel of requestChannels) api[channel] = (input: unknown) => call(channel, input);
  api.on = <E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void) => {
    ensureSource();
    const set = listeners.get(event) ?? new Set<Listener>();
    listeners.set(event, set);
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  };
  return api as RoamCompanionApi;
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined; // not from the preview server (a proxy page?): reported by status below
  }
}
