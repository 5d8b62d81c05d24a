// One table says who may ask Roam for a token again after each refusal; every reader follows it.
import { describe, expect, it } from 'vitest';
import {
  TOKEN_REQUEST_REFUSALS,
  errorFromResponse,
  tokenRequestRefusal,
} from '../../../src-shared/local-api/index.ts';
import { tokenRequestError } from '../../../src-mcp/contract/tool-errors.ts';

const codes = Object.keys(TOKEN_REQUEST_REFUSALS);

describe('token request refusals', () => {
  it('are exactly the codes the Local API client treats as refused exchanges', () => {
    for (const code of codes) {
      expect(errorFromResponse(403, { error: { code, message: 'no' } }).kind, code).toBe('exchange');
    }
    expect(tokenRequestRefusal('INTERNAL_ERROR')).toBeUndefined();
    expect(tokenRequestRefusal('constructor')).toBeUndefined();
  });

  it('an agent asks again only when nobody decided; a decline or Never Allow is final for it', () => {
    const retryable = (code: string) =>
      tokenRequestError(errorFromResponse(403, { error: { code, message: 'no' } })).details.retryable;
    expect(Object.fromEntries(codes.map((code) => [code, retryable(code)]))).toEqual({
      USER_REJECTED: false,
      GRAPH_BLOCKED: false,
      REQUEST_IN_PROGRESS: true,
      TIMEOUT: true,
      CANCELLED: true,
    });
  });
});
