/**
 * Our server as the clients' own packages bring it (docs/clients.md, "Claude Code plugin and
 * Gemini CLI extension"): beside our entry it is a second server named roam-companion — Claude
 * Code runs both (the plugin's as `plugin:roam-companion:roam-companion`), Gemini CLI silently
 * keeps one. Found where each client records it, as their CLIs wrote it (Claude Code 2.1,
 * Gemini CLI 0.61).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ClientId } from '../../src-shared/clients.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';
import type { InstallerOptions } from './installer-options.ts';

/** The package's name in each client: the plugin `roam-companion@<marketplace>`, the extension's folder. */
const PACKAGE = 'roam-companion';

export interface ClientPackage {
  /** What it is, as the person knows it: "the roam-companion plugin". */
  what: string;
  /** The client's command that removes it. */
  remove: string;
}

type Context = Pick<InstallerOptions, 'home' | 'env'>;

const absoluteEnv = (ctx: Context, name: string) => {
  const value = (ctx.env ?? process.env)[name];
  return value && path.isAbsolute(value) ? value : undefined;
};

/** Claude Code's user settings name the plugins it enabled (`claude plugin install` writes them). */
async function claudeCodePlugin(ctx: Context): Promise<ClientPackage | undefined> {
  const dir = absoluteEnv(ctx, 'CLAUDE_CONFIG_DIR') ?? path.join(ctx.home, '.claude');
  const settings: unknown = await readFile(path.join(dir, 'settings.json'), 'utf8').then(
    (text) => JSON.parse(text) as unknown,
    () => undefined,
  );
  const enabled = isPlainObject(settings) ? settings.enabledPlugins : undefined;
  if (!isPlainObject(enabled)) return undefined;
  const plugin = Object.keys(enabled).find(
    (name) => name.startsWith(`${PACKAGE}@`) && enabled[name] === true,
  );
  return plugin
    ? { what: `the ${PACKAGE} plugin (${plugin})`, remove: `claude plugin uninstall ${plugin}` }
    : undefined;
}

/** Gemini CLI keeps each extension, linked or copied, in a folder of its own. */
async function geminiCliExtension(ctx: Context): Promise<ClientPackage | undefined> {
  const home = absoluteEnv(ctx, 'GEMINI_CLI_HOME') ?? ctx.home;
  const folder = path.join(home, '.gemini', 'extensions', PACKAGE);
  const isDir = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  return isDir
    ? { what: `the ${PACKAGE} extension`, remove: `gemini extensions uninstall ${PACKAGE}` }
    : undefined;
}

/** The client's own package that brings our server too, if it has one. */
export function clientPackage(id: ClientId, ctx: Context): Promise<ClientPackage | undefined> {
  if (id === 'claude-code') return claudeCodePlugin(ctx);
  if (id === 'gemini-cli') return geminiCliExtension(ctx);
  return Promise.resolve(undefined);
}

/** What to say when the client has both: two servers by one name, and how to keep one. */
export function duplicateNote(name: string, id: ClientId, found: ClientPackage): string {
  const shows =
    id === 'gemini-cli'
      ? 'Gemini CLI keeps only one of two servers with one name, without saying which'
      : `${name} runs both, so every tool is there twice`;
  return (
    `${name} also has Roam Companion from ${found.what}: two servers named roam-companion (${shows}). ` +
    `Keep one: \`${found.remove}\`, or \`roam-mcp uninstall ${id}\`.`
  );
}
