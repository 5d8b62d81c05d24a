import { describe, expect, it } from 'vitest';
import { BridgeError, describeError } from '../../../src-renderer/bridge/bridge-error.ts';
import { createHttpBridge } from '../../../src-renderer/bridge/http-bridge.ts';

type FetchCall = { url: string; init: RequestInit };

function bridgeAnswering(response: () => Response | Promise<Response>) {
  const calls: FetchCall[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return response();
  }) as unknown as typeof fetch;
  return { calls, api: createHttpBridge({ baseUrl: 'http://127.0.0.1:9', fetchImpl }) };
}

describe('HTTP bridge', () => {
  it('posts the input as JSON to /ipc/<channel> and returns the result', async () => {
    const { calls, api } = bridgeAnswering(() => Response.json({ ok: true }));
    await expect(api['graphs:check-nickname']({ nickname: 'x' })).resolves.toEqual({ ok: true });
    expect(calls[0]?.url).toBe('http://127.0.0.1:9/ipc/graphs:check-nickname');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe('{"nickname":"x"}');
  });

  it('sends no body for void channels and returns undefined for 204', async () => {
    const { calls, api } = bridgeAnswering(() => new Response(null, { status: 204 }));
    await expect(api['roam:open']()).resolves.toBeUndefined();
    expect(calls[0]?.init.body).toBe('');
  });

  it("turns an error answer into a BridgeError with the core's code and message", async () => {
    const { api } = bridgeAnswering(() =>
      Response.json({ code: 'NOT_FOUND', message: "No graph 'x'. Reload the list." }, { status: 404 }),
    );
    const error = await api['graphs:remove']({ id: 'hosted:x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: "No graph 'x'. Reload the list." });
  });

  it('says what to do when the preview server is gone', async () => {
    const { api } = bridgeAnswering(() => {
      throw new TypeError('fetch failed');
    });
    const error = await api['graphs:list']().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PREVIEW_UNREACHABLE' });
    expect(describeError(error)).toMatch(/npm run demo/);
  });

  it("strips Electron's invoke prefix from error messages", () => {
    const electron = new Error(
      "Error invoking remote method 'graphs:add': Error: Nickname 'a' is taken. Pick another.",
    );
    expect(describeError(electron)).toBe("Nickname 'a' is taken. Pick another.");
  });
});

describe('HTTP bridge events', () => {
  /** A stand-in EventSource the test drives: the browser's own is exercised by the e2e tests. */
  class FakeEventSource extends EventTarget {
    static last: FakeEventSource | undefined;
    constructor(readonly url: string) {
      super();
      FakeEventSource.last = this;
    }
    send(type: string, data?: unknown) {
      const event = new MessageEvent(type, { data: data === undefined ? undefined : JSON.stringify(data) });
      this.dispatchEvent(event);
    }
  }

  it('delivers named events to listeners, stops after unsubscribe, and reports a reconnect', () => {
    let reconnects = 0;
    const api = createHttpBridge({
      baseUrl: 'http://127.0.0.1:9',
      EventSourceImpl: FakeEventSource as unknown as typeof EventSource,
      onReconnect: () => reconnects++,
    });
    const received: unknown[] = [];
    const off = api.on('status:changed', (status) => received.push(status.mcpSessions));
    const source = FakeEventSource.last!;
    expect(source.url).toBe('http://127.0.0.1:9/events');
    source.send('open');
    source.send('status:changed', { roam: { running: true, port: 1, checkedAt: 0 }, mcpSessions: 3 });
    expect(received).toEqual([3]);
    expect(reconnects).toBe(0);

    source.send('error');
    source.send('open');
    expect(reconnects).toBe(1);
    off();
    source.send('status:changed', { roam: { running: true, port: 1, checkedAt: 0 }, mcpSessions: 4 });
    expect(received).toEqual([3]);
  });
});
