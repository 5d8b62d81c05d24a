/** keys:* — the keys HTTP clients connect with, by name, and revoking one (src-main/core/clients/client-keys.ts). */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import { CoreError } from '../core-error.ts';
import { clientKeys, toKeyView } from '../clients/client-keys.ts';
import type { CoreContext } from './core-context.ts';
import { clientsByKey } from './clients.ts';

export function keyHandlers(ctx: CoreContext) {
  const keys = clientKeys(ctx.options);
  const list = async () => {
    const [stored, users] = await Promise.all([keys.list(), clientsByKey(ctx)]);
    return stored.map((key) => toKeyView(key, users.get(key.name) ?? []));
  };
  return {
    'keys:list': (): Promise<RequestResults['keys:list']> => list(),
    async 'keys:revoke'(input: RequestArgs<'keys:revoke'>): Promise<RequestResults['keys:revoke']> {
      if (!(await keys.revoke(input.name)))
        throw new CoreError(
          'NOT_FOUND',
          `There is no key named '${input.name}'. Reload the list and try again.`,
        );
      return list();
    },
  };
}
