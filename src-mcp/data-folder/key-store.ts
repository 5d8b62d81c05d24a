/**
 * The keys HTTP clients present (docs/reliability.md, "Keys"): one per client, named, each with an
 * optional access level that caps every graph for its chats. Only a SHA-256 of each key is kept
 * (a key is 256 random bits, so a slow hash adds nothing), in `<data folder>/keys.json` (0600,
 * written atomically under a lock). A running server re-reads the file when it changed (one stat
 * per request), so a revoke takes effect on the next request.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ACCESS_LEVELS, type AccessLevel } from '../../src-shared/constants.ts';
import { parseToolsets, type ToolsetName } from '../../src-shared/toolsets.ts';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { dataDir, type DataDirOptions } from '../../src-shared/node/data-dir.ts';
import { withFileLock } from '../../src-shared/node/file-lock.ts';

export const KEYS_FILE = 'keys.json';
/** Every key starts so: recognisable in a config file, and by our leak checks. */
export const KEY_PREFIX = 'roam-mcp-key-';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface KeyEntry {
  name: string;
  /** Hex SHA-256 of the key. */
  sha256: string;
  access?: AccessLevel;
  /** The toolsets its chats get (a client that works poorly with many tools); else the server's. */
  toolsets?: ToolsetName[];
  createdAt: string;
}

/** What anyone may see of a key: never the key, never its hash. */
export interface KeyInfo {
  name: string;
  access?: AccessLevel;
  toolsets?: ToolsetName[];
  createdAt: string;
}

export class KeyError extends Error {}

/** `dir`: a data folder named outright (the tray's), else the machine's. */
export type KeysAt = DataDirOptions & { dir?: string };

export function keysFile(options: KeysAt = {}): string {
  return path.join(options.dir ?? dataDir(options), KEYS_FILE);
}

const hashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A stored key named so, or the one whose hash is `key`'s (the key a client's entry carries). */
export type WhichKey = string | { key: string };
const isKey = (entry: KeyEntry, which: WhichKey) =>
  typeof which === 'string' ? entry.name === which : entry.sha256 === hashOf(which.key);

function parseKeys(text: string, file: string): KeyEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyError(
      `${file} is not valid JSON. Remove it and create the keys again (roam-mcp key create NAME).`,
    );
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys))
    throw new KeyError(`${file} has no "keys" list. Remove it and create the keys again.`);
  return keys.filter(
    (k): k is KeyEntry =>
      typeof k === 'object' &&
      k !== null &&
      typeof (k as KeyEntry).name === 'string' &&
      typeof (k as KeyEntry).sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test((k as KeyEntry).sha256),
  );
}

async function readKeys(file: string): Promise<KeyEntry[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text === undefined ? [] : parseKeys(text, file);
}

const info = (entry: KeyEntry): KeyInfo => ({
  name: entry.name,
  ...(entry.access ? { access: entry.access } : {}),
  ...(entry.toolsets ? { toolsets: entry.toolsets } : {}),
  createdAt: entry.createdAt,
});

/** Creating, listing and revoking keys (the CLI and the tray); `KeyVerifier` serves requests. */
export class KeyStore {
  readonly file: string;

  constructor(options: KeysAt = {}) {
    this.file = keysFile(options);
  }

  async list(): Promise<KeyInfo[]> {
    return (await readKeys(this.file)).map(info);
  }

  /** A new key, returned once: only its hash is stored. */
  async create(name: string, access?: string, tools?: string): Promise<{ key: string; info: KeyInfo }> {
    if (!NAME.test(name))
      throw new KeyError(
        `'${name}' is not a usable key name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. claude-code).`,
      );
    if (access !== undefined && !(ACCESS_LEVELS as readonly string[]).includes(access))
      throw new KeyError(`'${access}' is not an access level. Use one of: ${ACCESS_LEVELS.join(', ')}.`);
    const toolsets = tools === undefined ? undefined : parseToolsets(tools, '--tools');
    if (toolsets && 'error' in toolsets) throw new KeyError(toolsets.error);
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const entry: KeyEntry = {
      name,
      sha256: hashOf(key),
      ...(access ? { access: access as AccessLevel } : {}),
      ...(toolsets ? { toolsets: toolsets.sets } : {}),
      createdAt: new Date().toISOString(),
    };
    await this.update((keys) => {
      if (keys.some((k) => k.name === name))
        throw new KeyError(
          `A key named '${name}' exists. Revoke it first (roam-mcp key revoke ${name}) or choose another name.`,
        );
      return [...keys, entry];
    });
    return { key, info: info(entry) };
  }

  /**
   * The toolsets the key's chats get from now on (chats open now keep theirs); the key itself
   * stays as it is, so the client's config is not touched. False when there is no such key.
   */
  async setToolsets(which: WhichKey, toolsets: readonly ToolsetName[]): Promise<boolean> {
    let found = false;
    await this.update((keys) =>
      keys.map((k) => {
        if (!isKey(k, which)) return k;
        found = true;
        return { ...k, toolsets: [...toolsets] };
      }),
    );
    return found;
  }

  /** Removes the key; false when there was no such key. */
  async revoke(which: WhichKey): Promise<boolean> {
    let found = false;
    await this.update((keys) => {
      found = keys.some((k) => isKey(k, which));
      return keys.filter((k) => !isKey(k, which));
    });
    return found;
  }

  /**
   * In one step: the keys `revoke` names go, and each of `rename` takes its new name (a new key
   * made under a name of its own takes its client's name once the entry holding it is written).
   * A new name that is another remaining key's is refused, and nothing changes.
   */
  async settle(revoke: readonly WhichKey[], rename: ReadonlyArray<{ which: WhichKey; to: string }> = []) {
    for (const { to } of rename) if (!NAME.test(to)) throw new KeyError(`'${to}' is not a usable key name.`);
    await this.update((keys) => {
      const kept = keys.filter((k) => !revoke.some((which) => isKey(k, which)));
      const renamed = kept.map((k) => {
        const change = rename.find(({ which }) => isKey(k, which));
        return change ? { ...k, name: change.to } : k;
      });
      for (const { to } of rename)
        if (renamed.filter((k) => k.name === to).length > 1)
          throw new KeyError(
            `A key named '${to}' exists. Revoke it first (roam-mcp key revoke ${to}) and try again.`,
          );
      return renamed;
    });
  }

  /** What anyone may see of the stored key `presented` is (matched by its hash); undefined when none is. */
  async find(presented: string): Promise<KeyInfo | undefined> {
    const entry = (await readKeys(this.file)).find((k) => isKey(k, { key: presented }));
    return entry ? info(entry) : undefined;
  }

  private async update(change: (keys: KeyEntry[]) => KeyEntry[]): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await withFileLock(
      this.file,
      `Another roam-mcp or Roam Companion is changing the keys (${this.file}). Try again in a moment.`,
      async () => {
        const keys = change(await readKeys(this.file));
        await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, keys }, null, 2)}\n`, 0o600);
      },
    );
  }
}

/** Checks a presented key against the file as it is now (re-read only when it changed). */
export class KeyVerifier {
  private seen: { signature: string; byHash: Map<string, KeyEntry> } | undefined;
  /** Told the names of keys that were revoked since the last read (their chats end). */
  onRevoked: (names: string[]) => void = () => {};

  constructor(readonly file: string) {}

  /** Re-reads the file if it changed (the server's sweep calls it: a revoke ends open streams too). */
  async refresh(): Promise<void> {
    await this.current();
  }

  /** The key's entry, or undefined for no key, an unknown one or a revoked one. */
  async verify(presented: string | undefined): Promise<KeyEntry | undefined> {
    if (!presented?.startsWith(KEY_PREFIX)) return undefined;
    const byHash = await this.current();
    const hash = hashOf(presented);
    const entry = byHash.get(hash);
    // The map lookup is by hash of a secret the caller already holds; compare again in constant time.
    if (!entry || !timingSafeEqual(Buffer.from(entry.sha256, 'hex'), Buffer.from(hash, 'hex')))
      return undefined;
    return entry;
  }

  private async current(): Promise<Map<string, KeyEntry>> {
    const stats = await stat(this.file).catch(() => undefined);
    const signature = stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : 'none';
    if (this.seen?.signature !== signature) {
      const keys = stats ? await readKeys(this.file).catch(() => []) : [];
      const before = this.seen?.byHash;
      this.seen = { signature, byHash: new Map(keys.map((k) => [k.sha256, k])) };
      const gone = [...(before?.values() ?? [])].filter((k) => !this.seen?.byHash.has(k.sha256));
      if (gone.length > 0) this.onRevoked(gone.map((k) => k.name));
    }
    return this.seen.byHash;
  }
}
