/**
 * The token-request retry rules live in one place (src-mcp/contract/tool-errors.ts): a token request that
 * failed answers the same `retryable` / `suggested_next_tool` whichever path reports it.
 */
import { describe, expect, it } from 'vitest';
import { LocalApiError } from '../../../src-shared/local-api/index.ts';
import { tokenRequestError, toToolError } from '../../../src-mcp/contract/tool-errors.ts';

const outcome = (code: string) =>
  new LocalApiError({ status: 403, code, kind: 'exchange', message: `Roam said ${code}.` });

describe('token request outcomes', () => {
  it.each([
    ['USER_REJECTED', false, undefined],
    ['GRAPH_BLOCKED', false, undefined],
    ['REQUEST_IN_PROGRESS', true, 'select_graph'],
    ['TIMEOUT', true, 'select_graph'],
    ['CANCELLED', true, 'select_graph'],
  ])('%s: retryable %s, next tool %s', (code, retryable, next) => {
    const graph = { nickname: 'Work' };
    for (const error of [tokenRequestError(outcome(code), graph), toToolError(outcome(code), graph)]) {
      expect(error.code).toBe(code);
      expect(error.details.retryable).toBe(retryable);
      expect(error.details.suggested_next_tool).toBe(next);
      expect(error.details.graph).toBe('Work');
      expect(error.message).toBe(`No token for graph 'Work': Roam said ${code}.`);
    }
  });
});
