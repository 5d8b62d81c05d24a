/**
 * What remote access keeps (docs/remote.md): `<data folder>/remote/remote.json`, 0600 in a 0700
 * folder, written atomically under a lock, by the serving process and by `roam-mcp remote` (or the
 * tray) alike; each re-reads it when it changed (one stat per read). Tokens are kept only as SHA-256
 * hashes (256 random bits each: a slow hash adds nothing, as for keys); authorization codes never
 * reach the file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AccessLevel } from '../../src-shared/constants.ts';
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { dataDir, type DataDirOptions } from '../../src-shared/node/data-dir.ts';
import { withFileLock } from '../../src-shared/node/file-lock.ts';

export const REMOTE_DIR = 'remote';
export const REMOTE_FILE = 'remote.json';

/** A client that registered itself (RFC 7591): its name is its own claim, so it is shown unverified. */
export interface RegisteredClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  createdAt: string;
  /** When it last started an authorization: a registration never used is cleaned up. */
  usedAt?: string;
}

/** What the person chose at the machine. */
export interface Decision {
  level?: AccessLevel;
  toolsets?: ToolsetName[];
  /** graphIds (src-shared/constants.ts) its chats may reach, resolved at approval; absent: every graph. */
  graphs?: string[];
}

/** An authorization waiting for the person at the machine (never decided by the page). */
export interface WaitingRequest {
  id: string;
  /** The short code the page shows and the machine shows: the person matches them. */
  code: string;
  clientId: string;
  clientName: string;
  /** true: the client's name and redirect come from its metadata document at an https URL it controls. */
  verified: boolean;
  redirectUri: string;
  scopes: string[];
  resource: string;
  state?: string;
  codeChallenge: string;
  /** SHA-256 of the secret only the page holds: only that page collects the answer. */
  pageHash: string;
  createdAt: string;
  expiresAt: string;
  status: 'waiting' | 'approved' | 'denied';
  decision?: Decision;
}

export interface StoredToken {
  sha256: string;
  expiresAt: string;
}

export interface StoredRefresh extends StoredToken {
  issuedAt: string;
  /** When it was exchanged: it still works for the grace window (concurrent refreshes), then never. */
  usedAt?: string;
}

/** A connection: one client's approved access, until revoked. */
export interface Grant {
  id: string;
  clientId: string;
  clientName: string;
  verified: boolean;
  redirectUri: string;
  /** The public URL's MCP endpoint the tokens are for (RFC 8707). */
  resource: string;
  scopes: string[];
  decision: Decision;
  createdAt: string;
  usedAt?: string;
  /** SHA-256 of the code it came from: the code replayed revokes the grant (RFC 6749 4.1.2). */
  codeSha256: string;
  accessTokens: StoredToken[];
  refreshTokens: StoredRefresh[];
}

/** Where a running server serves remote access (for the doctor and the tray): never a secret. */
export interface ServedAt {
  publicUrl: string;
  /** http://127.0.0.1:PORT, where the tunnel should point. */
  local: string;
  pid: number;
  startedAt: string;
}

export interface RemoteState {
  version: 1;
  served?: ServedAt;
  /** false: switched off (`roam-mcp remote off`, the tray): the listener refuses everything. */
  enabled: boolean;
  clients: RegisteredClient[];
  requests: WaitingRequest[];
  grants: Grant[];
}

const empty = (): RemoteState => ({ version: 1, enabled: true, clients: [], requests: [], grants: [] });

export type RemoteAt = DataDirOptions & { dir?: string };

export function remoteFile(where: RemoteAt = {}): string {
  return path.join(where.dir ?? dataDir(where), REMOTE_DIR, REMOTE_FILE);
}

export const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new secret: `prefix` and 256 random bits. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** A short id for people to type (`roam-mcp remote approve ID`). */
export const newId = () => randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);

export class RemoteStoreError extends Error {}

function parse(text: string, file: string): RemoteState {
  let parsed: Partial<RemoteState>;
  try {
    parsed = JSON.parse(text) as Partial<RemoteState>;
  } catch {
    throw new RemoteStoreError(
      `${file} is not valid JSON. Remove it (every remote connection must then be approved again) and try again.`,
    );
  }
  const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
  return {
    version: 1,
    ...(parsed.served ? { served: parsed.served } : {}),
    enabled: parsed.enabled !== false,
    clients: list(parsed.clients),
    requests: list(parsed.requests),
    grants: list(parsed.grants),
  };
}

/** The file, read again only when it changed; every change under the lock. */
export class RemoteStore {
  readonly file: string;
  private seen: { signature: string; state: RemoteState } | undefined;

  constructor(where: RemoteAt = {}) {
    this.file = remoteFile(where);
  }

  async read(): Promise<RemoteState> {
    const stats = await stat(this.file).catch(() => undefined);
    const signature = stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : 'none';
    if (this.seen?.signature !== signature) {
      const text = stats ? await readFile(this.file, 'utf8').catch(() => undefined) : undefined;
      this.seen = { signature, state: text === undefined ? empty() : parse(text, this.file) };
    }
    return this.seen.state;
  }

  /** Changes the state as it is on disk now; `change` returns what the caller gets back. */
  async update<T>(change: (state: RemoteState) => T): Promise<T> {
    const dir = path.dirname(this.file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return withFileLock(
      this.file,
      `Another roam-mcp or Roam Companion is changing remote access (${this.file}). Try again in a moment.`,
      async () => {
        const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        });
        const state = text === undefined ? empty() : parse(text, this.file);
        const result = change(state);
        await writeFileAtomic(this.file, `${JSON.stringify(state, null, 2)}\n`, 0o600);
        this.seen = undefined;
        return result;
      },
    );
  }
}
