/**
 * The token-request retry rules live in one place (src-mcp/contract/tool-errors.ts): a token request that
 * failed answers the same `retryable` / `suggested_next_tool` whichever path reports it. The codes
 * an agent can branch on are one list, and docs/mcp.md's Errors table names exactly those.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LocalApiError } from '../../../src-shared/local-api/index.ts';
import { TOOL_ERROR_CODES, tokenRequestError, toToolError } from '../../../src-mcp/contract/tool-errors.ts';

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

describe('error codes', () => {
  it("docs/mcp.md's Errors table names every code of TOOL_ERROR_CODES, and only those", () => {
    const doc = fs.readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');
    const table = doc.slice(
      doc.indexOf('\n## Errors\n'),
      doc.indexOf('\n## ', doc.indexOf('\n## Errors\n') + 1),
    );
    const codeCells = [...table.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) +\|/gm)].map((m) => m[1]!);
    const documented = codeCells.flatMap((cell) => [...cell.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!));
    expect([...documented].sort()).toEqual([...TOOL_ERROR_CODES].sort());
  });

  it('a token request Roam failed without a refusal code is TOKEN_REQUEST_FAILED', () => {
    expect(tokenRequestError(outcome('SOMETHING_ELSE')).code).toBe('TOKEN_REQUEST_FAILED');
  });
});
