/**
 * MCP behind the tunnel: the SDK's bearer check (tokens this server issued for the resource, RFC
 * 8707 audience; 401 with `resource_metadata`, 403 insufficient_scope), then the hub's own pieces
 * (chats, 2025 sessions, the 2026-07-28 handler), each connection's chats capped like a key.
 */
import type { ServerResponse } from 'node:http';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  isLegacyRequest,
  requireBearerAuth,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { ChatScope } from '../contract/chat-scope.ts';
import { log } from '../contract/log.ts';
import type { KeyEntry } from '../data-folder/key-store.ts';
import { Chats, keyScope } from '../http/chats.ts';
import { legacySessions } from '../http/legacy-sessions.ts';
import type { HubLimits } from '../http/limits.ts';
import { RateLimit } from '../http/rate-limit.ts';
import { refusalResponse, refusals } from '../http/refusals.ts';
import type { RoamMcpServer } from '../server/server.ts';
import { SCOPES, type RemoteAuthority } from './authority.ts';
import type { Grant, RemoteState } from './remote-store.ts';

interface Passed {
  chat: ChatScope;
}

/** A connection as the hub's chats know a key: its id for a name, its cap, its toolsets. */
function keyOf(grant: Grant): KeyEntry {
  return {
    name: `remote-${grant.id}`,
    sha256: '',
    ...(grant.decision.level ? { access: grant.decision.level } : {}),
    ...(grant.decision.toolsets ? { toolsets: grant.decision.toolsets } : {}),
    createdAt: grant.createdAt,
  };
}

const passOn = (passed: Passed): AuthInfo => ({
  token: 'remote',
  clientId: 'remote',
  scopes: [],
  extra: { passed },
});

export interface RemoteMcp {
  serve(request: Request, parsed: unknown, res: ServerResponse): Promise<Response>;
  /** Ends the streams and chats of connections gone from `state` (revoked, or remote switched off). */
  endGone(state: RemoteState): Promise<void>;
  close(): Promise<void>;
}

export function remoteMcp(mcp: RoamMcpServer, authority: RemoteAuthority, limits: HubLimits): RemoteMcp {
  const { resource } = authority.names;
  const chats = new Chats({ max: limits.maxChats, perKey: limits.maxChatsPerKey, idleMs: limits.idleMs });
  // Only a client its https metadata document vouches for has approvals that count in the chat.
  const verified = new Set<string>();
  // The graphs each connection was approved for: its chats reach no other (ChatScope.graphs).
  const graphsOf = new Map<string, readonly string[]>();
  chats.scopeFor = (key) => {
    const graphs = graphsOf.get(key.name);
    return {
      ...keyScope(key),
      remote: true,
      approvesInChat: verified.has(key.name),
      ...(graphs ? { graphs } : {}),
    };
  };
  const rate = new RateLimit(limits.ratePerMinute);
  const open = new Map<string, Set<ServerResponse>>();
  const modern = createMcpHandler(
    ({ authInfo }) => mcp.serverFor('modern', (authInfo?.extra?.passed as Passed).chat),
    {
      legacy: 'reject',
      maxRequestBodySize: limits.maxBodyBytes,
      onerror: (error: Error) => log('warn', `remote: ${error.message}`),
    },
  );
  const stopNotices = mcp.notifyTo(modern.notify);
  const legacy = legacySessions(mcp, chats, limits);
  const bearer = requireBearerAuth({
    verifier: authority,
    requiredScopes: SCOPES,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(resource)),
    expectedResource: new URL(resource),
  });

  async function serve(request: Request, parsed: unknown, res: ServerResponse): Promise<Response> {
    const auth = await bearer(request);
    if (auth instanceof Response) return auth;
    const grant = (await authority.store.read()).grants.find((g) => g.id === auth.extra?.grant);
    if (!grant) return refusalResponse(refusals.badKey());
    const key = keyOf(grant);
    if (grant.verified) verified.add(key.name);
    if (grant.decision.graphs) graphsOf.set(key.name, grant.decision.graphs);
    const answering = open.get(key.name) ?? new Set<ServerResponse>();
    open.set(key.name, answering.add(res));
    res.once('close', () => answering.delete(res));
    const wait = rate.take(key.name);
    if (wait > 0) return refusalResponse(refusals.rateLimited(limits.ratePerMinute, wait));
    if (await isLegacyRequest(request, parsed, { maxRequestBodySize: limits.maxBodyBytes }))
      return legacy(request, key, parsed);
    const chat = chats.modern(key, request.headers.get('mcp-session-id'));
    if (chat === 'server') return refusalResponse(refusals.tooManySessions(limits.maxChats));
    if (chat === 'key')
      return refusalResponse(refusals.keyShareUsed(limits.maxChatsPerKey, grant.clientName));
    return modern.fetch(request, {
      authInfo: passOn({ chat: chat.scope }),
      ...(parsed === undefined ? {} : { parsedBody: parsed }),
    });
  }

  return {
    serve,
    async endGone(state) {
      await chats.sweep();
      const live = new Set(state.enabled ? state.grants.map((g) => `remote-${g.id}`) : []);
      const gone = [...open.keys()].filter((name) => !live.has(name));
      for (const name of gone) for (const res of open.get(name) ?? []) res.destroy();
      for (const name of gone) open.delete(name);
      for (const name of gone) graphsOf.delete(name);
      if (gone.length) await chats.endKeys(gone);
    },
    async close() {
      stopNotices();
      await modern.close();
      await chats.closeAll();
    },
  };
}
