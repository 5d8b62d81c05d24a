/** Decides whether our entry in a client's config still launches this copy of Roam Companion. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ClientInstallState, ClientView } from '../../src-shared/clients.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';
import { redactSecrets } from './redact-secrets.ts';

export interface EntryState {
  state: Exclude<ClientInstallState, 'unavailable' | 'config-error'>;
  /** Why the entry is stale (what to do next is up to the caller). */
  message?: string;
  /** What the user added to an installed entry (`--read-only`, env), kept on update. */
  customOptions?: NonNullable<ClientView['customOptions']>;
  /** The toolsets the client's chats get (an http entry's key's). */
  toolsets?: string[];
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const argsOf = (entry: Record<string, unknown>): unknown[] => (Array.isArray(entry.args) ? entry.args : []);

function startsWith(args: unknown[], prefix: unknown[]): boolean {
  return prefix.length <= args.length && prefix.every((arg, i) => sameValue(args[i], arg));
}

/**
 * The arguments the user added after ours, e.g. `--read-only` or `--config PATH`. When our part
 * is out of date (another path), they are the args from the first `--option` on: our launchers'
 * only long option is the tray's `--mcp` (docs/clients.md).
 */
export function userArgs(entry: unknown, desired: Record<string, unknown>): unknown[] {
  if (!isPlainObject(entry)) return [];
  const args = argsOf(entry);
  const ours = argsOf(desired);
  if (startsWith(args, ours)) return args.slice(ours.length);
  // The same launcher with another toolset choice (its own options, such as the demo's `--home`, are ours).
  const launcher = ours.slice(0, Math.max(0, ours.findIndex(isChoiceArg)));
  if (launcher.length > 0 && startsWith(args, launcher)) return withoutToolsArgs(args.slice(launcher.length));
  const first = args.findIndex((arg) => typeof arg === 'string' && arg.startsWith('--') && arg !== '--mcp');
  const added = first < 0 ? [] : args.slice(first);
  // A toolset choice in our args replaces the entry's old one (docs/mcp.md, Toolsets).
  return ours.includes('--tools') ? withoutToolsArgs(added) : added;
}

const isToolsArg = (arg: unknown) => typeof arg === 'string' && /^--tools(=|$)/.test(arg);
const isChoiceArg = (arg: unknown) => typeof arg === 'string' && /^--(tools|client)(=|$)/.test(arg);

/** `args` without the toolset choice: `--tools SETS` and `--client ID` (either with `=`). */
function withoutToolsArgs(args: unknown[]): unknown[] {
  return args.filter(
    (arg, i) => !isChoiceArg(arg) && !(args[i - 1] === '--tools' || args[i - 1] === '--client'),
  );
}

/** The toolsets an entry's args choose (`--tools a,b`), or undefined when it chooses none. */
export function toolsetsOfEntry(entry: unknown): string[] | undefined {
  if (!isPlainObject(entry)) return undefined;
  const args = argsOf(entry);
  const at = args.findIndex(isToolsArg);
  if (at < 0) return undefined;
  const value = args[at] === '--tools' ? args[at + 1] : String(args[at]).slice('--tools='.length);
  return String(value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

/**
 * True when `entry` has every field of `desired`, its args starting with ours (the user may add
 * options after them); a missing `type` means stdio, as clients read it.
 */
export function entryMatches(entry: unknown, desired: Record<string, unknown>): boolean {
  if (!isPlainObject(entry)) return false;
  return Object.entries(desired).every(([field, value]) => {
    if (field === 'args') return Array.isArray(entry.args) && startsWith(entry.args, argsOf(desired));
    return sameValue(field === 'type' ? (entry.type ?? 'stdio') : entry[field], value);
  });
}

/** What makes an entry launch a process, and what makes it point at a URL: one replaces the other. */
const STDIO_FIELDS = ['command', 'args', 'env', 'type', 'cwd', 'env_vars'];
const HTTP_FIELDS = [
  'url',
  'httpUrl',
  'headers',
  'type',
  'bearer_token_env_var',
  'http_headers',
  'env_http_headers',
];

/** Our entry with our required parts (command, type, leading args) updated and the user's additions kept. */
export function mergedEntry(entry: unknown, desired: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(entry)) return desired;
  const overHttp = typeof desired.url === 'string' || typeof desired.httpUrl === 'string';
  const kept = Object.fromEntries(
    Object.entries(entry).filter(([field]) => !(overHttp ? STDIO_FIELDS : HTTP_FIELDS).includes(field)),
  );
  if (overHttp) return { ...kept, ...desired };
  return { ...kept, ...desired, args: [...argsOf(desired), ...userArgs(entry, desired)] };
}

function customOptions(entry: Record<string, unknown>, desired: Record<string, unknown>) {
  // The toolsets show on their own (ClientView.toolsets), not as an added option.
  const args = withoutToolsArgs(userArgs(entry, desired)).map((arg) => redactSecrets(String(arg)));
  const env = isPlainObject(entry.env) ? Object.keys(entry.env) : [];
  return args.length || env.length ? { customOptions: { args, env } } : {};
}

function launchLine(entry: Record<string, unknown>): string {
  if (typeof entry.url === 'string') return entry.url;
  return [String(entry.command ?? '(no command)'), ...argsOf(entry).map(String)].join(' ');
}

/**
 * `installed` when the entry matches `desired` (with the user's added options, if any); `stale`
 * when it exists but launches something else or a path that is gone (the app was moved, the
 * package removed); `not-installed` when absent.
 */
export async function entryState(entry: unknown, desired: Record<string, unknown>): Promise<EntryState> {
  if (entry === undefined) return { state: 'not-installed' };
  if (!isPlainObject(entry)) {
    return { state: 'stale', message: 'Our entry is not a valid server entry.' };
  }
  const added = userArgs(entry, desired);
  const ours = [entry.command, ...argsOf(entry).slice(0, argsOf(entry).length - added.length)];
  for (const part of ours) {
    if (typeof part === 'string' && path.isAbsolute(part) && !(await exists(part))) {
      return {
        state: 'stale',
        message: `Our entry launches ${part}, which no longer exists (was Roam Companion moved or removed?).`,
      };
    }
  }
  if (!entryMatches(entry, desired)) {
    return {
      state: 'stale',
      message: `Our entry launches "${redactSecrets(launchLine(entry))}", not this copy of Roam Companion ("${launchLine(desired)}").`,
    };
  }
  return { state: 'installed', ...customOptions(entry, desired) };
}
