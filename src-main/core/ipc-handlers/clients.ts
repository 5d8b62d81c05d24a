/**
 * clients:* — connect AI clients through src-mcp's installers: launching this app with `--mcp`,
 * or, when the tray runs the HTTP server, Cursor and VS Code by URL with a key each
 * (src-main/core/client-keys.ts). Claude Code stays on `--mcp` here: its setup is a command the
 * view shows, and a key must never reach the renderer.
 */
import { existsSync } from 'node:fs';
import type { ClientView, RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import {
  install,
  lineDiff,
  listClients,
  previewChange,
  uninstall,
  type InstallerOptions,
} from '../../../src-mcp/installers/index.ts';
import type { CoreContext } from './core-context.ts';
import { clientKeys, newClientKey } from '../client-keys.ts';
import { HTTP_DEFAULT_PORT } from '../../../src-shared/constants.ts';
import { installDefaultToolsets } from '../../../src-shared/toolsets.ts';

const HTTP_CLIENTS: ReadonlySet<string> = new Set(['cursor', 'vscode']);
const DEFAULT_URL = `http://127.0.0.1:${HTTP_DEFAULT_PORT}/mcp`;

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

/** The entry over HTTP for `id` when the tray runs the server; `key` only when installing. */
async function withHttp(
  ctx: CoreContext,
  id: string,
  opts: InstallerOptions,
  key?: () => Promise<string>,
): Promise<InstallerOptions> {
  if (!ctx.options.httpHub || !HTTP_CLIENTS.has(id)) return opts;
  const url = (await ctx.hubUrl()) ?? DEFAULT_URL;
  return { ...opts, http: { url, ...(key ? { key: await key() } : {}) } };
}

export function clientHandlers(ctx: CoreContext) {
  const keys = clientKeys(ctx.options);
  // Each client's state against the entry it would get now (http or --mcp).
  const listAll = async () => {
    const views = await listed(installerOptions(ctx));
    if (!ctx.options.httpHub) return views;
    return Promise.all(
      views.map(async (view) =>
        HTTP_CLIENTS.has(view.id)
          ? ((await listed(await withHttp(ctx, view.id, installerOptions(ctx)))).find(
              (v) => v.id === view.id,
            ) ?? view)
          : view,
      ),
    );
  };
  const refresh = async () => ctx.emit('clients:changed', await listAll());
  return {
    async 'clients:list'(): Promise<RequestResults['clients:list']> {
      return listAll();
    },
    async 'clients:preview'(
      input: RequestArgs<'clients:preview'>,
    ): Promise<RequestResults['clients:preview']> {
      // A placeholder key: the preview shows every key as <hidden>, and no key is made for a look.
      const opts = await withHttp(
        ctx,
        input.id,
        installerOptions(ctx, choiceOf(input)),
        async () => 'roam-mcp-key-preview',
      );
      const change = await previewChange(input.id, input.action, opts);
      // The same diff as the CLI's --dry-run, so the change is visible even in a minified file.
      const diff = lineDiff(change.before ?? '', change.after ?? '');
      return { ...change, diff };
    },
    async 'clients:install'(
      input: RequestArgs<'clients:install'>,
    ): Promise<RequestResults['clients:install']> {
      const opts = await withHttp(ctx, input.id, installerOptions(ctx, choiceOf(input)), () =>
        newClientKey(keys, input.id, input.toolsets ?? installDefaultToolsets(input.id)),
      );
      const result = await install(input.id, opts);
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
      input: RequestArgs<'clients:uninstall'>,
    ): Promise<RequestResults['clients:uninstall']> {
      const result = await uninstall(input.id, installerOptions(ctx));
      if (HTTP_CLIENTS.has(input.id)) await keys.revoke(input.id);
      await refresh();
      return outcome(result);
    },
  };
}
