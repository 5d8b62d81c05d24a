/** status, settings, Roam launch and the first-run import. */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import { CoreError } from '../core-error.ts';
import { checkStoredTokens } from '../tokens/stored-token-check.ts';
import { checkImport, runImport } from '../store/roam-tools-import.ts';
import { checkAddedUploadFolders } from '../graphs/upload-folder-check.ts';
import type { CoreContext } from './core-context.ts';

export function appHandlers(ctx: CoreContext) {
  return {
    async 'status:get'(): Promise<RequestResults['status:get']> {
      const roam = await ctx.status.check();
      if (roam.running && (await checkStoredTokens(ctx.store, ctx.api))) ctx.storeChanged(ctx.store.read());
      return ctx.appStatus();
    },
    async 'roam:open'(): Promise<void> {
      if (!ctx.options.openExternal) {
        throw new CoreError(
          'UNAVAILABLE',
          'Opening Roam is not possible from here. Start Roam Desktop yourself.',
        );
      }
      await ctx.options.openExternal('roam://');
    },
    async 'http:retry'(): Promise<void> {
      ctx.retryHttpServer();
    },
    async 'settings:get'(): Promise<RequestResults['settings:get']> {
      return ctx.store.read().settings;
    },
    async 'settings:set'(input: RequestArgs<'settings:set'>): Promise<RequestResults['settings:set']> {
      if (input.uploadFolders)
        await checkAddedUploadFolders(
          input.uploadFolders,
          ctx.store.read().settings.uploadFolders,
          ctx.options.platform ?? process.platform,
        );
      if (input.launchAtLogin !== undefined) await ctx.options.setLaunchAtLogin?.(input.launchAtLogin);
      const data = await ctx.store.update((d) => {
        if (input.launchAtLogin !== undefined) d.settings.launchAtLogin = input.launchAtLogin;
        if (input.defaultAccessLevel !== undefined) d.settings.defaultAccessLevel = input.defaultAccessLevel;
        if (input.uploadFolders !== undefined) d.settings.uploadFolders = [...new Set(input.uploadFolders)];
        if (input.confirm !== undefined) d.settings.confirm = input.confirm;
      });
      if (input.launchAtLogin !== undefined) await ctx.hubOpensAtLoginChanged();
      // A graph without a choice of its own shows Settings' on its row.
      if (input.confirm !== undefined) ctx.storeChanged(data);
      return data.settings;
    },
    async 'import:check'(): Promise<RequestResults['import:check']> {
      return checkImport(ctx.options.home, ctx.store.read());
    },
    async 'import:dismiss'(): Promise<void> {
      await ctx.store.update((d) => {
        d.importDone = true;
      });
    },
    async 'import:run'(): Promise<RequestResults['import:run']> {
      const data = await runImport(ctx.options.home, ctx.store);
      ctx.storeChanged(data);
      return ctx.graphViews(data);
    },
  };
}
