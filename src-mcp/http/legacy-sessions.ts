/**
 * 2025-11-25 over HTTP: a session per `initialize` (the SDK's sessionful
 * `WebStandardStreamableHTTPServerTransport` and one server instance), its chat opened under the
 * key that initialized it (src-mcp/http/chats.ts), later requests routed by `Mcp-Session-Id` and
 * only for that key, list_changed sent on the session's own stream.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serverSink, type RoamMcpServer } from '../server/server.ts';
import type { Chat, Chats } from './chats.ts';
import type { HubLimits } from './limits.ts';
import type { KeyEntry } from '../data-folder/key-store.ts';
import { refusalResponse, refusals } from './refusals.ts';

export function legacySessions(
  mcp: RoamMcpServer,
  chats: Chats,
  limits: HubLimits,
): (request: Request, key: KeyEntry, parsed: unknown) => Promise<Response> {
  const transports = new WeakMap<Chat, WebStandardStreamableHTTPServerTransport>();
  return async (request, key, parsed) => {
    const body = parsed === undefined ? {} : { parsedBody: parsed };
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const chat = chats.session(key, sessionId);
      const transport = chat && transports.get(chat);
      if (!transport) return refusalResponse(refusals.unknownSession());
      return transport.handleRequest(request, body);
    }
    if (request.method !== 'POST') return refusalResponse(refusals.sessionRequired());
    const opened = chats.legacy(key);
    if (opened === 'server') return refusalResponse(refusals.tooManySessions(limits.maxChats));
    if (opened === 'key') return refusalResponse(refusals.keyShareUsed(limits.maxChatsPerKey, key.name));
    const { chat, register, abandon } = opened;
    const server = mcp.serverFor('legacy', chat.scope);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: limits.maxBodyBytes,
      onsessioninitialized: (id) => {
        register(id);
        transports.set(chat, transport);
        const stopNotices = mcp.notifyTo(serverSink(server));
        chat.close = async () => {
          stopNotices();
          transports.delete(chat);
          await server.close();
        };
      },
      onsessionclosed: (id) => chats.endSession(id),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, body);
    // Not an initialize that opened a session: nothing of it stays.
    if (!transport.sessionId) {
      abandon();
      await server.close();
    }
    return response;
  };
}
