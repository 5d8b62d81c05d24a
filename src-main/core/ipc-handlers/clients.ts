/**
 * clients:* — connect AI clients through src-mcp's installers: launching this app with `--mcp`,
 * or, when the tray runs the HTTP server, by URL with a key each (src-main/core/clients/client-keys.ts):
 * Cursor and VS Code get theirs in their config; Claude Code's setup is a command the view shows
 * that names only the file its key waits in (headersHelper): Copy makes the key in main, writes it
 * there (0600) and copies the command (`clients:copy-command`), so a key never reaches the
 * renderer, the clipboard, a command line or shell history.
 */
import { existsSync } from 'node:fs';
import type { ClientId, ClientView, RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import {
  claudeCodeAddCommand,
  claudeCodeHeadersPath,
  writeClaudeCodeHeaders,
  clientSpec,
  entryHoldsKey,
  install,
  keyBehind,
  lineDiff,
  listClients,
  previewChange,
  rotateKey,
  uninstall,
  type InstallerOptions,
  type KeyRotation,
} from '../../../src-mcp/installers/index.ts';
import type { CoreContext } from './core-context.ts';
import { clientKeys } from '../clients/client-keys.ts';
import type { KeyStore } from '../../../src-mcp/data-folder/index.ts';
import { HTTP_DEFAULT_PORT } from '../../../src-shared/constants.ts';
import { installDefaultToolsets } from '../../../src-shared/toolsets.ts';
import { CoreError } from '../core-error.ts';

/**
 * The client speaks Streamable HTTP (the catalogue has its http entry). Codex keeps stdio here, as
 * it did while its key had to come from an environment variable the tray cannot set
 * (`roam-mcp install codex --transport http` writes the key into its config now).
 */
const speaksHttp = (id: ClientId) => clientSpec(id).httpEntryFor !== undefined && id !== 'codex';
/** The install writes the key into the client's config; Claude Code's goes only to the clipboard. */
const keyInConfig = (id: ClientId) => clientSpec(id).setup === 'file';
/** Claude Code's key, named as `roam-mcp install claude-code --transport http` names it. */
const CLAUDE_CODE_KEY = 'claude-code';
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
  // Where the tray keeps its clients' keys: an http entry is installed only while its key is there.
  if (options.dataDir) opts.dataDir = options.dataDir;
  return opts;
}

/**
 * The installers call a client whose config file is there but unreadable "unavailable", like a
 * client that is not installed; the tray says "Config error" for it, with the installer's reason.
 */
function trayView(client: ClientView, options: InstallerOptions): ClientView {
  const view: ClientView =
    client.state === 'unavailable' && client.configPath && existsSync(client.configPath)
      ? { ...client, state: 'config-error' }
      : client;
  // Over HTTP, Claude Code's command shows `<key>`: copying it makes the key in main.
  return view.id === 'claude-code' && options.http && !options.http.key
    ? { ...view, commandKey: CLAUDE_CODE_KEY }
    : view;
}

const listed = async (options: InstallerOptions) =>
  (await listClients(options)).map((client) => trayView(client, options));

const choiceOf = (input: { id: string; toolsets?: string[] }) =>
  input.toolsets ? { client: input.id, toolsets: input.toolsets } : undefined;

const outcome = (
  result: Awaited<ReturnType<typeof install>>,
  options: InstallerOptions,
): RequestResults['clients:install'] => ({
  client: trayView(result.client, options),
  changed: result.changed,
  ...(result.backupPath ? { backupPath: result.backupPath } : {}),
});

/**
 * Whether `id` connects to the tray's HTTP server: the tray runs one and the client speaks it;
 * Claude Code only when main can copy its command with the key (the demo's preview cannot).
 */
const overHttp = (ctx: CoreContext, id: ClientId) =>
  !!ctx.options.httpHub && speaksHttp(id) && (id !== 'claude-code' || !!ctx.options.writeClipboard);

/**
 * The entry over HTTP for `id` when it connects to the tray's server (`overHttp`); `key` only when
 * installing a client whose config gets it (never Claude Code's view: it goes to the renderer).
 */
async function withHttp(
  ctx: CoreContext,
  id: ClientId,
  opts: InstallerOptions,
  key?: () => Promise<string>,
): Promise<InstallerOptions> {
  if (!overHttp(ctx, id)) return opts;
  const url = (await ctx.hubUrl()) ?? DEFAULT_URL;
  // Claude Code's command names only the file its key waits in (headersHelper): no key in it.
  if (id === 'claude-code') return { ...opts, http: { url, headersFile: claudeCodeHeadersPath(opts) } };
  return { ...opts, http: { url, ...(key && keyInConfig(id) ? { key: await key() } : {}) } };
}

const OVER_STDIO =
  'Claude Code connects over stdio here, so its command holds no key: copy the command shown instead. Nothing was changed.';
const CLIPBOARD_FAILED =
  'Could not write the clipboard, so the command was not copied (its new key was made all the same). Click Copy again, then run the new command.';

/** An http entry whose key is no longer stored (revoked, or replaced by a newer one): the client is refused. */
function keyGone(view: ClientView): string {
  const again =
    view.id === 'claude-code'
      ? `run ${CLAUDE_CODE_REMOVE}, then copy the command below and run it`
      : `update it to give it a new key`;
  return `Its key was revoked or replaced by a newer one, so ${view.name} is refused: ${again}.`;
}

/** A stdio entry of ours while the tray serves HTTP: it works, each chat launching its own roam-mcp. */
function stdioWhileServing(view: ClientView): string {
  return view.id === 'claude-code'
    ? `Connected over stdio for all your projects: each chat starts its own roam-mcp. To share the tray's server instead, run ${CLAUDE_CODE_REMOVE}, then copy the command below and run it.`
    : `Connected over stdio: each chat starts its own roam-mcp. Switch it to HTTP to share the tray's server (one for every chat).`;
}
const CLAUDE_CODE_REMOVE = 'claude mcp remove --scope user roam-companion';

/**
 * The client as it connects: over HTTP the installers judge its entry by its URL and the key it
 * carries (matched by hash, never by a key's name), whose toolsets are its chats'; a stdio entry of
 * ours is installed (and may switch to HTTP). `stdio`: its view against the stdio entry, when already read.
 */
async function connection(ctx: CoreContext, id: ClientId, stdio?: ClientView): Promise<ClientView> {
  const stdioView = stdio ?? (await listed(installerOptions(ctx))).find((v) => v.id === id)!;
  // Codex stays on stdio here, but an http entry the CLI wrote is shown as what it is.
  if (!overHttp(ctx, id)) return { ...stdioView, transport: stdioView.transport ?? 'stdio' };
  const opts = await withHttp(ctx, id, installerOptions(ctx));
  const http = (await listed(opts)).find((v) => v.id === id)!;
  if (http.transport === 'http' && (http.state === 'installed' || http.state === 'stale')) {
    if (http.state === 'stale' && !(await keyBehind(id, opts)))
      return { ...http, state: 'stale', transport: 'http', message: keyGone(http) };
    return { ...http, transport: 'http' };
  }
  if (stdioView.state === 'installed') {
    // Claude Code keeps the HTTP command to copy; a file client keeps its stdio entry's view.
    const shown = id === 'claude-code' ? { ...http, toolsets: stdioView.toolsets } : stdioView;
    return {
      ...shown,
      state: 'installed',
      transport: 'stdio',
      canSwitchToHttp: true,
      message: stdioWhileServing(http),
    };
  }
  return { ...http, transport: 'http' };
}

/** An HTTP client's new toolsets go to the key its entry carries; its config is not touched. */
async function setKeyToolsets(
  ctx: CoreContext,
  keys: KeyStore,
  input: RequestArgs<'clients:set-toolsets'>,
): Promise<void> {
  const client = await connection(ctx, input.id);
  const behind =
    client.transport === 'http' && client.state === 'installed'
      ? await keyBehind(input.id, await withHttp(ctx, input.id, installerOptions(ctx)))
      : undefined;
  if (!behind)
    throw new CoreError(
      'UNAVAILABLE',
      `${client.name} is not connected to the tray's HTTP server with a key of its own, so its toolsets are in its entry: use "Apply the toolsets" or install it. Nothing was changed.`,
    );
  if (!(await keys.setToolsets(behind.which, input.toolsets)))
    throw new CoreError('NOT_FOUND', keyGone(client));
}

/**
 * `change` (an install or uninstall), then the key that was behind the client's entry revoked:
 * whoever made it, the entry holding it is replaced or gone, so it must stop working too.
 */
async function withKeyTakenBack<T>(
  ctx: CoreContext,
  keys: KeyStore,
  id: ClientId,
  change: () => Promise<T>,
): Promise<T> {
  const behind = await keyBehind(id, await withHttp(ctx, id, installerOptions(ctx)));
  const done = await change();
  if (behind) await keys.revoke(behind.which);
  return done;
}

/**
 * Installs with a new key beside the old one: the old key goes only once the written entry reads
 * back holding the new one (src-mcp/installers/key-rotation.ts); a failed write takes back only
 * the new key, so the entry the client has keeps working.
 */
async function installRotating(id: ClientId, opts: InstallerOptions, rotation: KeyRotation) {
  let result: Awaited<ReturnType<typeof install>>;
  try {
    result = await install(id, opts);
  } catch (error) {
    await rotation.abandon();
    throw error;
  }
  if (result.client.state === 'installed' && (await entryHoldsKey(id, rotation.key, opts)))
    await rotation.settle();
  return result;
}

/** The clients whose entries carry each key, by the key's name (matched by what the entry holds). */
export async function clientsByKey(ctx: CoreContext): Promise<Map<string, string[]>> {
  const users = new Map<string, string[]>();
  for (const view of await listed(installerOptions(ctx))) {
    const behind = await keyBehind(view.id, await withHttp(ctx, view.id, installerOptions(ctx))).catch(
      () => undefined,
    );
    if (behind) users.set(behind.info.name, [...(users.get(behind.info.name) ?? []), view.name]);
  }
  return users;
}

/**
 * A new key for Claude Code and its command, to the clipboard only: the old key goes at once when
 * the entry reads the headers file, else it keeps working until the person runs the new command.
 */
async function copyClaudeCodeCommand(ctx: CoreContext, keys: KeyStore) {
  const { writeClipboard } = ctx.options;
  const opts = await withHttp(ctx, 'claude-code', installerOptions(ctx));
  if (!opts.http || !writeClipboard) throw new CoreError('UNAVAILABLE', OVER_STDIO);
  const behind = await keyBehind('claude-code', opts);
  const rotation = await rotateKey(keys, 'claude-code', behind, installDefaultToolsets('claude-code'));
  // The key goes into the headers file the command names (0600): never into the clipboard.
  await writeClaudeCodeHeaders(opts, rotation.key).catch(async (error: unknown) => {
    await rotation.abandon();
    throw error;
  });
  // An entry whose helper reads that file sends the new key already: the old one may go. Else the
  // old key keeps working (as claude-code-old) until the person runs the new command.
  if (await entryHoldsKey('claude-code', rotation.key, opts)) await rotation.settle();
  else await rotation.keepOld();
  try {
    await writeClipboard(claudeCodeAddCommand(opts));
  } catch {
    throw new CoreError('INTERNAL', CLIPBOARD_FAILED);
  }
  return { copied: true as const, keyName: CLAUDE_CODE_KEY };
}

export function clientHandlers(ctx: CoreContext) {
  const keys = clientKeys(ctx.options);
  /** A file client's outcome shows it as it connects now; Claude Code's keeps the command to run. */
  const withConnection = async (done: RequestResults['clients:install']) =>
    keyInConfig(done.client.id) ? { ...done, client: await connection(ctx, done.client.id) } : done;
  const listAll = async () => {
    const views = await listed(installerOptions(ctx));
    return Promise.all(views.map((view) => connection(ctx, view.id, view)));
  };
  const refresh = async () => ctx.emit('clients:changed', await listAll());
  // One at a time: two copies at once would each replace the key the other is making.
  let copying: Promise<unknown> = Promise.resolve();
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
      let rotation: KeyRotation | undefined;
      const opts = await withHttp(ctx, input.id, installerOptions(ctx, choiceOf(input)), async () => {
        const behind = await keyBehind(input.id, await withHttp(ctx, input.id, installerOptions(ctx)));
        rotation = await rotateKey(
          keys,
          input.id,
          behind,
          input.toolsets ?? installDefaultToolsets(input.id),
        );
        return rotation.key;
      });
      const result = rotation
        ? await installRotating(input.id, opts, rotation)
        : await withKeyTakenBack(ctx, keys, input.id, () => install(input.id, opts));
      if (input.toolsets) {
        const toolsets = input.toolsets;
        await ctx.store.update((data) => {
          data.clientToolsets[input.id] = toolsets;
        });
      }
      await refresh();
      return withConnection(outcome(result, opts));
    },
    async 'clients:set-toolsets'(
      input: RequestArgs<'clients:set-toolsets'>,
    ): Promise<RequestResults['clients:set-toolsets']> {
      await setKeyToolsets(ctx, keys, input);
      await refresh();
      return connection(ctx, input.id);
    },
    async 'clients:uninstall'(
      input: RequestArgs<'clients:uninstall'>,
    ): Promise<RequestResults['clients:uninstall']> {
      const opts = installerOptions(ctx);
      const result = await withKeyTakenBack(ctx, keys, input.id, () => uninstall(input.id, opts));
      // Claude Code's entry is the person's to remove; the key the tray made for its command goes now.
      if (input.id === 'claude-code') await keys.revoke(CLAUDE_CODE_KEY);
      await refresh();
      return withConnection(outcome(result, opts));
    },
    'clients:copy-command': (): Promise<RequestResults['clients:copy-command']> => {
      const copied = copying.catch(() => {}).then(() => copyClaudeCodeCommand(ctx, keys));
      copying = copied;
      return copied;
    },
  };
}
