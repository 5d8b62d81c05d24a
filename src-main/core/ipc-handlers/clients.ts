/** clients:* — connect AI clients through src-mcp's installers, launching this app with `--mcp`. */
import type { z } from 'zod';
import type { RequestResults, requestSchemas } from '../../../src-shared/ipc-contract.ts';
import {
  install,
  lineDiff,
  listClients,
  previewChange,
  uninstall,
  type InstallerOptions,
} from '../../../src-mcp/installers/index.ts';
import type { CoreContext } from './core-context.ts';

type Input<C extends keyof typeof requestSchemas> = z.output<(typeof requestSchemas)[C]>;

/** `toolsets`: the client's choice, launched as `--tools a,b` after ours (docs/mcp.md, Toolsets). */
export function installerOptions(ctx: CoreContext, toolsets?: readonly string[]): InstallerOptions {
  const { options } = ctx;
  // Without the app's own launcher (browser preview, tests): node running the bundle.
  const launcher = options.launcher ?? { command: process.execPath, args: [options.mcpServerPath] };
  const opts: InstallerOptions = {
    home: options.home,
    launcher: toolsets ? { ...launcher, args: [...launcher.args, '--tools', toolsets.join(',')] } : launcher,
  };
  if (options.platform) opts.platform = options.platform;
  if (options.env) opts.env = options.env;
  return opts;
}

export function clientHandlers(ctx: CoreContext) {
  const refresh = async () => ctx.emit('clients:changed', await listClients(installerOptions(ctx)));
  return {
    async 'clients:list'(): Promise<RequestResults['clients:list']> {
      return listClients(installerOptions(ctx));
    },
    async 'clients:preview'(input: Input<'clients:preview'>): Promise<RequestResults['clients:preview']> {
      const change = await previewChange(input.id, input.action, installerOptions(ctx, input.toolsets));
      // The same diff as the CLI's --dry-run, so the change is visible even in a minified file.
      const diff = lineDiff(change.before ?? '', change.after ?? '');
      return { ...change, diff };
    },
    async 'clients:install'(input: Input<'clients:install'>): Promise<RequestResults['clients:install']> {
      const result = await install(input.id, installerOptions(ctx, input.toolsets));
      await refresh();
      return result.client;
    },
    async 'clients:uninstall'(
      input: Input<'clients:uninstall'>,
    ): Promise<RequestResults['clients:uninstall']> {
      const result = await uninstall(input.id, installerOptions(ctx));
      await refresh();
      return result.client;
    },
  };
}
