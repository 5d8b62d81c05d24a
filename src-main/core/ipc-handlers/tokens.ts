/** tokens:* and blocked:* — one-click token requests and the "Never Allow" list. */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import { toBlockedViews } from '../graphs/graph-views.ts';
import type { CoreContext } from './core-context.ts';

export function tokenHandlers(ctx: CoreContext) {
  return {
    async 'tokens:request'(input: RequestArgs<'tokens:request'>): Promise<RequestResults['tokens:request']> {
      const view = ctx.tokens.start(input.id, input.accessLevel);
      ctx.storeChanged(ctx.store.read());
      return view;
    },
    async 'tokens:cancel'(input: RequestArgs<'tokens:cancel'>): Promise<void> {
      ctx.tokens.cancel(input.id);
    },
    async 'tokens:requests'(): Promise<RequestResults['tokens:requests']> {
      return ctx.tokens.list();
    },
    async 'tokens:dismiss'(input: RequestArgs<'tokens:dismiss'>): Promise<void> {
      ctx.tokens.dismiss(input.id);
    },
    async 'blocked:list'(): Promise<RequestResults['blocked:list']> {
      return toBlockedViews(ctx.store.read());
    },
    async 'blocked:retry'(input: RequestArgs<'blocked:retry'>): Promise<RequestResults['blocked:retry']> {
      const view = await ctx.tokens.retryBlocked(input.id);
      ctx.storeChanged(ctx.store.read());
      return view;
    },
  };
}
