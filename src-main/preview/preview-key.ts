import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The per-run secret of the preview bridge. Loopback plus the Host and Origin checks keep web pages
 * out, not other local processes (of any user): every IPC call and the event stream must carry this
 * key, which only the printed page URL holds (in its fragment, which browsers never send or log).
 * The page sends it back as `Authorization: Bearer <key>`, and as `?key=` for the event stream,
 * since EventSource cannot set headers.
 */
export function newPreviewKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The page URL that carries the key: the fragment stays in the browser. */
export function pageUrlWithKey(baseUrl: string, key: string): string {
  return `${baseUrl}#key=${key}`;
}

/** 401 without a key, 403 with a wrong one, null when the caller holds the run's key. */
export function keyRefusal(req: IncomingMessage, key: string): { status: 401 | 403; message: string } | null {
  const header = req.headers.authorization;
  const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
  const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('key') ?? undefined;
  const given = bearer ?? query;
  if (given === undefined) {
    return {
      status: 401,
      message:
        'This preview needs the key its page URL carries: open the full URL the demo printed (it ends in #key=…).',
    };
  }
  const expected = Buffer.from(key);
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return {
      status: 403,
      message: 'The preview key is wrong (the demo was restarted?): open the URL the demo printed this time.',
    };
  }
  return null;
}
