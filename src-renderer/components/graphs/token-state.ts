import type { TokenState } from '../../../src-shared/ipc-contract.ts';

export const tokenStateText: Record<TokenState, string> = {
  ok: 'Token ok',
  missing: 'No token',
  revoked: 'Token revoked',
  blocked: 'Blocked',
  waiting: 'Waiting for approval',
};
