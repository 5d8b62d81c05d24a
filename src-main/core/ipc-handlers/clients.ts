/** clients:* — connect AI clients through src-mcp's installers, launching this app with `--mcp`. */
import type { z } from 'zod';
import { existsSync } from 'node:fs';
import type { ClientView, RequestResults, requestSchemas } from '../../../src-shared/ipc-contract.ts';
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

/**
 * `choice`: the client's toolsets, launched as `--client <id> --tools a,b` after ours: `--tools`
 * for the child, `--client` so the launcher can follow a later choice live (docs/mcp.md, Toolsets).
 */
export function installerOptions(
  ctx: CoreContext,
  choice?: { client: string; toolsets: readonly string[] },
): InstallerOptions {
  const { options } = ctx;
  // Without the app's own launcher (browser preview, tests): node running the bundle.
  const launcher = options.launcher ?? { command: process.execPath, args: [options.mcpServerPath] };
  const chosen = choice ? ['--client', choice.client, '--tools', choice.toolsets.join(',')] : [];
  const opts: InstallerOptions = {
    home: options.home,
    launcher: { ...launcher, args: [...launcher.args, ...chosen] },
  };
  if (options.platform) opts.platform = options.platform;
  if (options.env) opts.env = options.env;
  return opts;
}

/**
 * The installers call a client whose config file is there but unreadable "unavailable", like a
 * client that is not installed; the tray says "Config error" for it, with the installer's reason.
 */
function trayView(client: ClientView): ClientView {
  return client.state === 'unavailable' && client.configPath && existsSync(client.configPath)
    ? { ...client, state: 'config-error' }
    : client;
}

const listed = async (options: InstallerOptions) => (await listClients(options)).map(trayView);

const choiceOf = (input: { id: string; toolsets?: string[] }) =>
  input.toolsets ? { client: input.id, toolsets: input.toolsets } : undefined;

const outcome = (result: Awaited<ReturnType<typeof install>>): RequestResults['clients:install'] => ({
  client: trayView(result.client),
  changed: result.changed,
  ...(result.backupPath ? { backupPath: result.backupPath } : {}),
});

export function clientHandlers(ctx: CoreContext) {
  const refresh = async () => ctx.emit('clients:changed', await listed(installerOptions(ctx)));
  return {
    async 'clients:list'(): Promise<RequestResults['clients:list']> {
      return listed(installerOptions(ctx));
    },
    async 'clients:preview'(input: Input<'clients:preview'>): Promise<RequestResults['clients:preview']> {
      const change = await previewChange(input.id, input.action, installerOptions(ctx, choiceOf(input)));
      // The same diff as the CLI's --dry-run, so the change is visible even in a minified file.
      const diff = lineDiff(change.before ?? '', change.after ?? '');
      return { ...change, diff };
    },
    async 'clients:install'(input: Input<'clients:install'>): Promise<RequestResults['clients:install']> {
      const result = await install(input.id, installerOptions(ctx, choiceOf(input)));
      if (input.toolsets) {
        const toolsets = input.toolsets;
        await ctx.store.update((data) => {
          data.clientToolsets[input.id] = toolsets;
        });
      }
      await refresh();
      return outcome(result);
    },
    async 'clients:uninstall'(
      input: Input<'clients:uninstall'>,
    ): Promise<RequestResults['clients:uninstall']> {
      const result = await uninstall(input.id, installerOptions(ctx));
      await refresh();
      return outcome(result);
    },
  };
}
