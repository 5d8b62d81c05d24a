/**
 * `POST /api/{graph}[?type=offline]` after the HTTP layer: authentication, request shape,
 * `expectedApiVersion`, token scope, user permission, then the action — in Roam's order, with
 * Roam's statuses, codes and messages.
 */
import type { AccessLevel, GraphType } from '../../src-shared/roam-config.ts';
import { scopesOf } from '../../src-shared/roam-config.ts';
import { requiredScope } from './action-scopes.ts';
import { findAction } from './actions.ts';
import { extensionToolScope } from './extension-actions.ts';
import type { RoamGraph } from './roam-graph.ts';
import type { TokenStore } from './token-store.ts';

/** A graph the emulator serves, with the logged-in user's permission on it. */
export interface HostedGraph {
  graph: RoamGraph;
  userPermission: AccessLevel;
  /** Actions this (older) Roam build does not have: they answer UNKNOWN_ACTION. */
  missingActions: ReadonlySet<string>;
  /** An older build's result shapes (GraphSpec.olderShapes). */
  olderShapes: boolean;
  /** Not in /api/graphs/available (GraphSpec.public). */
  public: boolean;
}

export interface GraphCallContext {
  tokens: TokenStore;
  apiVersion: string;
  semanticSearch: boolean;
  graphs(name: string, type: GraphType): HostedGraph | undefined;
  /** Roam opens the graph's window once a request for it gets through authentication. */
  markOpen(name: string, type: GraphType): void;
}

export interface GraphCallRequest {
  graph: string;
  type: GraphType;
  authorization: string | undefined;
  body: unknown;
}

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

const reply = (status: number, body: Record<string, unknown>): Reply => ({ status, body });

function scopeLabel(level: AccessLevel): string {
  return level === 'read-only' ? 'read only' : level === 'read-append' ? 'read + append' : 'full access';
}

/** Roam compares major.minor only: a patch release cannot break a client. */
export function sameMajorMinor(a: string, b: string): boolean {
  const majorMinor = (v: string) => v.split('.').slice(0, 2).join('.');
  return majorMinor(a) === majorMinor(b);
}

/** Roam stamps its `apiVersion` on every answer, errors included. */
export function runGraphCall(context: GraphCallContext, request: GraphCallRequest): Reply {
  const answer = answerGraphCall(context, request);
  return { status: answer.status, body: { ...answer.body, apiVersion: context.apiVersion } };
}

function answerGraphCall(context: GraphCallContext, request: GraphCallRequest): Reply {
  const { tokens, apiVersion, semanticSearch } = context;
  const { graph: name, type, body } = request;
  const auth = tokens.authenticate(request.authorization, name, type);
  if (!auth.ok)
    return reply(auth.status, { success: false, error: { code: auth.code, message: auth.message } });
  const input = (body ?? {}) as { action?: unknown; args?: unknown; expectedApiVersion?: unknown };
  if (typeof input.action !== 'string' || input.action === '') {
    return reply(400, {
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message:
          'The request body needs "action" (a roamAlphaAPI path such as "data.q") and "args" (an array).',
      },
    });
  }
  if (input.args !== undefined && !Array.isArray(input.args)) {
    return reply(400, {
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: `"args" must be an array of arguments, got ${typeof input.args}.`,
      },
    });
  }
  const action = input.action;
  const args = (input.args ?? []) as unknown[];
  const entry = context.graphs(name, type);
  // A token only exists for a known graph, so this is an emulator bug if it happens.
  if (!entry)
    return reply(500, { success: false, error: { message: `Graph '${name}' (${type}) vanished.` } });
  context.markOpen(name, type);
  const expected = input.expectedApiVersion;
  if (expected !== undefined && !sameMajorMinor(String(expected), apiVersion)) {
    return reply(400, {
      success: false,
      error: {
        code: 'VERSION_MISMATCH',
        message: `API version mismatch: Roam Desktop speaks ${apiVersion}, the client expected ${String(expected)}. Update Roam Desktop or the client.`,
      },
      expectedApiVersion: expected,
    });
  }
  // An extension tool needs the scope it declares.
  const needed =
    action === 'data.ai.callExtensionTool'
      ? extensionToolScope(entry.graph, args)
      : requiredScope(action, args);
  if (!scopesOf(auth.grant.accessLevel).includes(needed)) {
    return reply(403, {
      success: false,
      error: {
        code: 'INSUFFICIENT_SCOPE',
        message: `Token does not have permission for this action. Your token can only be used for ${scopeLabel(auth.grant.accessLevel)}.`,
      },
    });
  }
  if (!scopesOf(entry.userPermission).includes(needed)) {
    return reply(403, {
      success: false,
      error: {
        code: 'SCOPE_EXCEEDS_PERMISSION',
        message:
          'You do not have sufficient permission for this action. This requires higher permission than the logged in user has.',
      },
    });
  }
  const handler = entry.missingActions.has(action)
    ? undefined
    : findAction(action, { semanticSearch, olderShapes: entry.olderShapes });
  if (!handler) {
    return reply(404, {
      success: false,
      error: { code: 'UNKNOWN_ACTION', message: `API action not found: ${action}` },
    });
  }
  try {
    // A token requested with `ai: true` writes as the graph's AI user.
    const author = auth.grant.ai ? 'ai' : 'human';
    const result = entry.graph.actingAs(author, () => handler(entry.graph, args));
    return reply(200, { success: true, result: result ?? null });
  } catch (error) {
    return reply(500, { success: false, error: { message: (error as Error).message } });
  }
}
