/**
 * Who a `client_id` is. An https URL is a client ID metadata document (the MCP authorization spec,
 * draft-ietf-oauth-client-id-metadata-document): fetched by the upload address policy (public
 * addresses only, DNS pinned, src-mcp/uploads/public-fetch.ts), no redirect followed, at most
 * MAX_DOCUMENT_BYTES within FETCH_TIMEOUT_MS, cached; its name is vouched for by its https host,
 * so it is shown verified. Any other id is one this server gave at registration (RFC 7591),
 * whose name is the client's own claim: shown unverified.
 */
import { plainLine } from '../../src-shared/person-text.ts';
import { isPublicAddress } from '../uploads/address-policy.ts';
import { fetchPublic, FetchRefusal } from '../uploads/public-fetch.ts';
import { usableRedirect } from './registration.ts';
import type { RegisteredClient } from './remote-store.ts';

export interface KnownClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  verified: boolean;
}

export const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const CACHE_MS = 10 * 60_000;
const CACHE_MAX = 32;

export class ClientRefused extends Error {}

const isLoopback = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

export function isDocumentUrl(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** The document's URL as the draft allows it, or why not. */
function documentUrl(clientId: string): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientRefused(`client_id ${clientId} is not a URL.`);
  }
  const dotted = clientId
    .split('?')[0]!
    .split('/')
    .some((part) => part === '.' || part === '..');
  if (url.protocol !== 'https:' || url.pathname === '/' || url.hash || url.username || url.password || dotted)
    throw new ClientRefused(
      `client_id ${clientId} is not a usable client metadata document URL: it must be https, with a path, and no fragment, credentials or dot segments.`,
    );
  return url;
}

function fromDocument(clientId: string, bytes: Buffer): KnownClient {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new ClientRefused(`The client metadata document at ${clientId} is not JSON.`);
  }
  if (doc.client_id !== clientId)
    throw new ClientRefused(`The client metadata document at ${clientId} names another client_id.`);
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every(usableRedirect))
    throw new ClientRefused(
      `The client metadata document at ${clientId} has no usable redirect_uris: each must be https, or http on a loopback address.`,
    );
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw new ClientRefused(
      `The client metadata document at ${clientId} asks for ${String(method)}; this server serves public clients only (none).`,
    );
  const named = typeof doc.client_name === 'string' ? plainLine(doc.client_name, 80) : '';
  return { clientId, name: named || url(clientId).host, redirectUris: uris as string[], verified: true };
}

const url = (text: string) => new URL(text);

export class ClientLookup {
  private readonly cache = new Map<string, { client: KnownClient; until: number }>();

  constructor(
    private readonly admitLoopback: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** The client, or ClientRefused saying why not (an unknown registration, a bad document). */
  async find(clientId: string, registered: readonly RegisteredClient[]): Promise<KnownClient> {
    if (!isDocumentUrl(clientId)) {
      const own = registered.find((c) => c.clientId === clientId);
      if (!own)
        throw new ClientRefused(
          `client_id ${clientId} is not registered here (registrations unused for a day are removed): register again.`,
        );
      return { clientId, name: own.name, redirectUris: own.redirectUris, verified: false };
    }
    const cached = this.cache.get(clientId);
    if (cached && cached.until > this.now()) return cached.client;
    const client = fromDocument(clientId, await this.fetchDocument(documentUrl(clientId)));
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(clientId, { client, until: this.now() + CACHE_MS });
    return client;
  }

  private async fetchDocument(at: URL): Promise<Buffer> {
    try {
      const fetched = await fetchPublic(at.href, {
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        maxBytes: MAX_DOCUMENT_BYTES,
        timeoutMs: FETCH_TIMEOUT_MS,
        redirects: 'refuse',
        userAgent: 'roam-mcp (client metadata document)',
        ...(this.admitLoopback ? { isAllowed: (a: string) => isPublicAddress(a) || isLoopback(a) } : {}),
      });
      return fetched.bytes;
    } catch (error) {
      const why =
        error instanceof FetchRefusal ? error.message.replace(/file_upload/g, 'this server') : String(error);
      throw new ClientRefused(`The client metadata document at ${at.href} could not be used: ${why}`);
    }
  }
}
