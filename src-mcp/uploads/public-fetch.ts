/**
 * GET over http(s) that reaches only the public internet (docs/reliability.md, Uploads):
 * - an IP literal host is judged before any connection; a name is resolved once, by our own
 *   `lookup`, which refuses the connection unless every address it found is public, and the socket
 *   connects to exactly those addresses (no second DNS lookup, so no rebinding between check
 *   and connect); the connected peer is checked once more;
 * - redirects are followed by hand, at most MAX_REDIRECTS, each hop checked like the first, never
 *   from https down to http;
 * - one deadline for the whole fetch; the body stops at `maxBytes`.
 * HTTPS keeps Node's certificate check against the URL's host name.
 */
import dns, { type LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import { isPublicAddress } from './address-policy.ts';

export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  signal: AbortSignal;
  maxBytes: number;
  timeoutMs: number;
  /** 'refuse': a redirect is refused, not followed (a client metadata document must be at its URL). */
  redirects?: 'follow' | 'refuse';
  /** Who is asking, for the server's logs (default: file_upload). */
  userAgent?: string;
  /** Tests only: a resolver, an address policy and a certificate authority of their own. */
  resolve?: typeof dns.lookup;
  isAllowed?: (address: string) => boolean;
  ca?: string;
}

export interface Fetched {
  bytes: Buffer;
  /** The URL that answered (after redirects). */
  url: URL;
  contentType?: string;
}

/** Why a fetch was refused or failed; `kind` picks the tool error, `message` says what to do. */
export class FetchRefusal extends Error {
  constructor(
    readonly kind: 'not-public' | 'scheme' | 'redirect' | 'too-large' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

const notPublic = (host: string) =>
  new FetchRefusal(
    'not-public',
    `'${host}' is not on the public internet (it is, or resolves to, a loopback, private, link-local or reserved address), so file_upload does not fetch it.`,
  );

export function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchRefusal('scheme', `'${text}' is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefusal('scheme', `Only http and https URLs can be fetched, got '${url.protocol}'.`);
  return url;
}

/** A `lookup` for net.connect that hands back only addresses the policy allows, or fails. */
function guardedLookup(resolve: typeof dns.lookup, isAllowed: (a: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      const addresses = (found ?? []) as LookupAddress[];
      if (error) return callback(error, '', 0);
      if (addresses.length === 0 || addresses.some((a) => !isAllowed(a.address)))
        return callback(notPublic(hostname), '', 0);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

/** One request, no redirect handling: resolves with the response once its headers arrived. */
function requestOnce(url: URL, signal: AbortSignal, options: FetchOptions): Promise<IncomingMessage> {
  const isAllowed = options.isAllowed ?? isPublicAddress;
  // The URL parser already turned every IPv4 spelling into a dotted quad: a literal is judged here
  // (net.connect does not call `lookup` for an IP).
  if (isIpLiteral(url.hostname) && !isAllowed(url.hostname)) return Promise.reject(notPublic(url.hostname));
  return new Promise((resolve, reject) => {
    // Loaded here, not at the top: https brings TLS, which every server start would pay for.
    const transport = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
    const request = transport.request(url, {
      method: 'GET',
      headers: { 'user-agent': options.userAgent ?? 'roam-mcp (file_upload)', accept: '*/*' },
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
      lookup: guardedLookup(options.resolve ?? dns.lookup, isAllowed),
      signal,
    });
    request.on('socket', (socket: Socket) =>
      socket.once('connect', () => {
        if (!socket.remoteAddress || !isAllowed(socket.remoteAddress))
          request.destroy(notPublic(url.hostname));
      }),
    );
    request.on('response', resolve);
    request.on('error', reject);
    request.end();
  });
}

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

/** The next hop of a redirect, checked like the first URL. */
function nextHop(from: URL, response: IncomingMessage, hops: number): URL {
  response.resume();
  const location = response.headers.location;
  if (!location)
    throw new FetchRefusal(
      'failed',
      `${from.origin} answered a redirect (HTTP ${response.statusCode}) without a target.`,
    );
  if (hops >= MAX_REDIRECTS)
    throw new FetchRefusal('redirect', `More than ${MAX_REDIRECTS} redirects from ${from.origin}.`);
  const next = httpUrl(new URL(location, from).href);
  if (from.protocol === 'https:' && next.protocol === 'http:')
    throw new FetchRefusal(
      'redirect',
      `${from.origin} redirects from https to plain http; file_upload does not follow that.`,
    );
  return next;
}

async function readBody(response: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new FetchRefusal(
      'too-large',
      `The file at ${url.origin}${url.pathname} is larger than the upload limit.`,
    );
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function failure(error: unknown, url: URL, deadline: AbortSignal, caller: AbortSignal): unknown {
  if (error instanceof FetchRefusal) return error;
  if (error instanceof Error && error.cause instanceof FetchRefusal) return error.cause;
  if (caller.aborted) return error;
  const reason = deadline.aborted ? 'it took too long' : (error as Error).message;
  return new FetchRefusal('failed', `Could not fetch ${url.origin}${url.pathname}: ${reason}.`);
}

/** Fetches `text` within `options`; throws FetchRefusal (or the caller's abort). */
export async function fetchPublic(text: string, options: FetchOptions): Promise<Fetched> {
  let url = httpUrl(text);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  try {
    for (let hops = 0; ; hops++) {
      const response = await requestOnce(url, signal, options);
      const status = response.statusCode ?? 0;
      if (isRedirect(status)) {
        if (options.redirects === 'refuse') {
          response.resume();
          throw new FetchRefusal(
            'redirect',
            `${url.origin}${url.pathname} answered a redirect, which is not followed here.`,
          );
        }
        url = nextHop(url, response, hops);
        continue;
      }
      if (status < 200 || status > 299) {
        response.resume();
        throw new FetchRefusal('failed', `Fetching ${url.origin}${url.pathname} answered HTTP ${status}.`);
      }
      const contentType = response.headers['content-type']?.split(';')[0]?.trim();
      const bytes = await readBody(response, url, options.maxBytes);
      return { bytes, url, ...(contentType ? { contentType } : {}) };
    }
  } catch (error) {
    throw failure(error, url, deadline, options.signal);
  }
}
