/**
 * Whether an entry that points a client at our HTTP server still works: its URL is where a server
 * of ours serves (running now, or Roam Companion's while it opens at login, or the default port
 * `roam-mcp serve --http` takes), and its key is one the server accepts (only hashes are kept, so
 * a revoked or replaced key is simply not there any more).
 */
import { HTTP_DEFAULT_PORT } from '../../src-shared/constants.ts';
import { DATA_DIR_ENV, type DataDirOptions } from '../../src-shared/node/data-dir.ts';
import { KeyStore, type KeyInfo, type WhichKey } from '../data-folder/key-store.ts';
import { readAtLoginFile, readUrlFile } from '../data-folder/url-file.ts';
import type { ClientSpec, HttpEntryParts } from './client-catalogue.ts';
import type { EntryState } from './entry-state.ts';
import type { InstallerOptions } from './installer-options.ts';
import { keyInHeadersFile } from './claude-code-headers.ts';

const DEFAULT_URL = `http://127.0.0.1:${HTTP_DEFAULT_PORT}/mcp`;

/** Where the data folder (keys, the running server's address) is for these options. */
export function dataDirOptions(
  opts: Pick<InstallerOptions, 'home' | 'env' | 'platform' | 'dataDir'>,
): DataDirOptions {
  const env = { ...((opts.env ?? process.env) as NodeJS.ProcessEnv) };
  if (opts.dataDir) env[DATA_DIR_ENV] = opts.dataDir;
  return { env, home: opts.home, ...(opts.platform ? { platform: opts.platform } : {}) };
}

/** Where a server of ours serves: now, at login, or (neither) where `serve --http` would. */
export interface ServedUrls {
  /** The URL an entry should hold: the running server's, else Roam Companion's at login, else the default. */
  preferred: string;
  /** Every URL an entry may hold and work. */
  urls: string[];
  /** The URL a server answers at right now (its process is alive). */
  running?: string;
}

export async function servedUrls(opts: InstallerOptions): Promise<ServedUrls> {
  const where = dataDirOptions(opts);
  const running = opts.http?.url ?? (await readUrlFile(where))?.url;
  const atLogin = await readAtLoginFile(where);
  const urls = [...new Set([running, atLogin].filter((url): url is string => !!url))];
  const preferred = urls[0] ?? DEFAULT_URL;
  return { preferred, urls: urls.length ? urls : [DEFAULT_URL], ...(running ? { running } : {}) };
}

function whereServed(served: ServedUrls): string {
  if (served.running) return `the roam-mcp HTTP server serves at ${served.running}`;
  if (served.urls[0] !== DEFAULT_URL || served.urls.length > 1)
    return `Roam Companion serves at ${served.urls.join(' or ')}`;
  return `no roam-mcp HTTP server runs, and \`roam-mcp serve --http\` serves at ${DEFAULT_URL}`;
}

/**
 * The stored key behind an http entry, as the key store names it: the key itself (matched by its
 * hash) when the entry carries it or the environment variable it names is visible here, else the
 * client's name (`install` names its key so). Only for taking the key back or changing its
 * toolsets, in this process: never shown, logged or sent anywhere.
 */
export interface KeyBehind {
  info: KeyInfo;
  which: WhichKey;
}

/** The key our entry carries, or the stored key it stands for (a key read from an environment variable). */
async function keyOf(
  spec: ClientSpec,
  parts: HttpEntryParts,
  opts: InstallerOptions,
): Promise<{ behind?: KeyBehind; problem?: string; note?: string }> {
  const store = new KeyStore(dataDirOptions(opts));
  const env = opts.env ?? process.env;
  const key =
    parts.key ??
    (parts.keyEnv ? env[parts.keyEnv] : undefined) ??
    (parts.keyFile ? await keyInHeadersFile(parts.keyFile) : undefined);
  if (key) {
    const info = await store.find(key);
    if (info) return { behind: { info, which: { key } } };
    return {
      problem: `Its key was revoked or replaced by a newer one, so the server refuses ${spec.name}.`,
    };
  }
  if (!parts.keyEnv) return { problem: `Our entry sends no key, so the server refuses ${spec.name}.` };
  // The key lives in the user's environment, which we cannot see from here: its name must still be a key of ours.
  const stored = (await store.list()).find((info) => info.name === spec.id);
  if (!stored) {
    return { problem: `Its key ('${spec.id}') was revoked, so the server refuses ${spec.name}.` };
  }
  return {
    behind: { info: stored, which: spec.id },
    note: `${spec.name} reads its key from the environment variable ${parts.keyEnv}, which must hold the key made for it when ${spec.name} starts.`,
  };
}

/**
 * The stored key behind an http entry of ours; undefined when there is none (its key is no longer
 * stored, or it stands for a key in the environment but points elsewhere than our server).
 */
export async function keyBehindEntry(
  spec: ClientSpec,
  parts: HttpEntryParts,
  opts: InstallerOptions,
): Promise<KeyBehind | undefined> {
  const { behind } = await keyOf(spec, parts, opts);
  // A key the entry holds is ours by its hash wherever it points; one named only by the client, at our server.
  if (!behind || typeof behind.which !== 'string') return behind;
  return (await servedUrls(opts)).urls.includes(parts.url) ? behind : undefined;
}

/**
 * The state of an entry that connects over HTTP (`parts` read from it by the client's catalogue
 * entry). A stale one's message says what is wrong; the caller says how to fix it.
 */
export async function httpEntryState(
  spec: ClientSpec,
  parts: HttpEntryParts,
  opts: InstallerOptions,
): Promise<EntryState> {
  const served = await servedUrls(opts);
  if (!served.urls.includes(parts.url)) {
    return {
      state: 'stale',
      message: `Our entry points at ${parts.url}, but ${whereServed(served)}.`,
    };
  }
  const key = await keyOf(spec, parts, opts);
  if (!key.behind) return { state: 'stale', message: key.problem! };
  const notes = [
    ...(key.note ? [key.note] : []),
    ...(served.running
      ? []
      : [
          `No roam-mcp HTTP server answers at ${parts.url} now: ${spec.name} connects once one runs (roam-mcp serve --http, or Roam Companion).`,
        ]),
  ];
  return {
    state: 'installed',
    ...(key.behind.info.toolsets ? { toolsets: key.behind.info.toolsets } : {}),
    ...(notes.length ? { message: notes.join(' ') } : {}),
  };
}
