/**
 * The tray's persistent state in one JSON file, `config.json` in the store folder (conf in plain
 * Node, electron-store in the shell: same API, same format), injected as a `StoreBackend`. It
 * holds the graphs, the blocked list, the settings and the clients' toolsets. Tokens are kept only
 * as SecretBox ciphertext plus their last 4 characters. Every change is a read-modify-write under
 * the store lock, and conf/electron-store write the file atomically (temp file + rename).
 */
import Conf from 'conf';
import * as z from 'zod';
import type { ChildGraph } from '../../../src-shared/child-ipc.ts';
import {
  ACCESS_LEVELS,
  CONFIRM_POLICIES,
  DEFAULT_ACCESS_LEVEL,
  GRAPH_TYPES,
  validateGraphs,
  type GraphType,
  type TokenAccessLevel,
} from '../../../src-shared/roam-config.ts';
import { graphId } from '../../../src-shared/constants.ts';
import { nicknameOf } from '../../../src-shared/graph-identity.ts';
import { CoreError } from '../core-error.ts';
import { toEntry } from './graph-rules.ts';
import { STORE_FILE_MODE, STORE_NAME } from './store-file.ts';
import type { storedTokenSchema } from './stored-graph.ts';
import { storedGraphSchema, type StoredGraph } from './stored-graph.ts';
import { withStoreLock } from './store-lock.ts';
import type { SecretBox } from './secret-box.ts';

/** The part of conf / electron-store the core uses. */
export interface StoreBackend {
  store: Record<string, unknown>;
  readonly path: string;
}

export type { StoredGraph } from './stored-graph.ts';

const storeDataSchema = z.object({
  version: z.literal(1).default(1),
  graphs: z.array(storedGraphSchema).default([]),
  blocked: z
    .array(z.object({ name: z.string(), type: z.enum(GRAPH_TYPES), blockedAt: z.number() }))
    .default([]),
  settings: z
    .object({
      launchAtLogin: z.boolean().default(false),
      defaultAccessLevel: z.enum(ACCESS_LEVELS).default(DEFAULT_ACCESS_LEVEL),
      /** Where file_upload may read local files (none by default; docs/reliability.md, Uploads). */
      uploadFolders: z.array(z.string()).default([]),
      /** When agents' writes wait for the person (docs/mcp.md), for graphs without their own `confirm`. */
      confirm: z.enum(CONFIRM_POLICIES).default('destructive'),
    })
    .default({
      launchAtLogin: false,
      defaultAccessLevel: DEFAULT_ACCESS_LEVEL,
      uploadFolders: [],
      confirm: 'destructive',
    }),
  /** Set once the user imported (or we found nothing to import from) `~/.roam-tools.json`. */
  importDone: z.boolean().default(false),
  /**
   * Each AI client's toolsets as last installed (client id → set names): a running `--mcp
   * --client <id>` launcher forwards a change to its child live (docs/mcp.md, Toolsets).
   */
  clientToolsets: z.record(z.string(), z.array(z.string())).default({}),
});
export type StoreData = z.infer<typeof storeDataSchema>;

/** conf with the tray's file name and the narrowest mode. */
export function createConfBackend(storeDir: string): StoreBackend {
  return new Conf<Record<string, unknown>>({
    cwd: storeDir,
    configName: STORE_NAME,
    configFileMode: STORE_FILE_MODE,
  });
}

export class TrayStore {
  constructor(
    private readonly backend: StoreBackend,
    readonly storeDir: string,
    private readonly secretBox: SecretBox,
  ) {}

  get path(): string {
    return this.backend.path;
  }

  read(): StoreData {
    let raw: unknown;
    try {
      raw = this.backend.store;
    } catch (error) {
      throw new CoreError(
        'INTERNAL',
        `The settings file ${this.backend.path} cannot be read (${(error as Error).message}). ` +
          'Move it aside and restart Roam Companion to start with empty settings.',
      );
    }
    const parsed = storeDataSchema.safeParse(raw);
    if (!parsed.success) {
      throw new CoreError(
        'INTERNAL',
        `The settings file ${this.backend.path} has an unexpected shape (${parsed.error.issues[0]?.message}). ` +
          'Move it aside and restart Roam Companion to start with empty settings.',
      );
    }
    return parsed.data;
  }

  /** What a store holds before anything was saved. */
  empty(): StoreData {
    return storeDataSchema.parse({});
  }

  /** Read-modify-write under the store lock; `fn` mutates the data or throws to abort. */
  async update(fn: (data: StoreData) => void | Promise<void>): Promise<StoreData> {
    return withStoreLock(this.storeDir, async () => {
      const data = this.read();
      await fn(data);
      this.backend.store = data as unknown as Record<string, unknown>;
      return data;
    });
  }

  find(data: StoreData, id: string): StoredGraph {
    const graph = data.graphs.find((g) => graphId(g) === id);
    if (!graph) {
      throw new CoreError(
        'NOT_FOUND',
        `No graph '${id}' is configured. Refresh the list; it may have been removed.`,
      );
    }
    return graph;
  }

  async sealToken(token: string): Promise<z.infer<typeof storedTokenSchema>> {
    const cipher = await this.secretBox.encrypt(token);
    return { cipher: Buffer.from(cipher).toString('base64'), last4: token.slice(-4) };
  }

  async openToken(graph: StoredGraph): Promise<string | undefined> {
    if (!graph.token) return undefined;
    return this.secretBox.decrypt(new Uint8Array(Buffer.from(graph.token.cipher, 'base64')));
  }

  /**
   * Stores a token obtained for a graph (by the tray or a child), adding the graph if unknown. The
   * chosen access level stays as the user set it: when Roam granted less, the graph view says so.
   */
  async saveToken(
    graph: { name: string; type: GraphType; nickname?: string | undefined },
    token: string,
    grantedAccessLevel: TokenAccessLevel,
  ): Promise<StoreData> {
    const sealed = await this.sealToken(token);
    return this.update((data) => {
      const existing = data.graphs.find((g) => graphId(g) === graphId(graph));
      if (existing) {
        existing.token = sealed;
        existing.grantedAccessLevel = grantedAccessLevel;
      } else {
        data.graphs.push({
          name: graph.name,
          type: graph.type,
          ...(graph.nickname && graph.nickname !== graph.name ? { nickname: graph.nickname } : {}),
          accessLevel: grantedAccessLevel,
          grantedAccessLevel,
          token: sealed,
        });
      }
      data.blocked = data.blocked.filter((b) => graphId(b) !== graphId(graph));
    });
  }

  async markRevoked(graph: { name: string; type: GraphType }): Promise<StoreData> {
    return this.update((data) => {
      const existing = data.graphs.find((g) => graphId(g) === graphId(graph));
      if (existing?.token) existing.token.revoked = true;
    });
  }

  /** Records what Roam says the stored token `last4` grants (it may have been replaced meanwhile). */
  async recordGrant(
    graph: { name: string; type: GraphType },
    last4: string,
    grantedAccessLevel: TokenAccessLevel,
  ): Promise<StoreData> {
    return this.update((data) => {
      const existing = data.graphs.find((g) => graphId(g) === graphId(graph));
      if (existing?.token?.last4 === last4) existing.grantedAccessLevel = grantedAccessLevel;
    });
  }

  /** The enabled graphs with decrypted tokens, as the MCP child receives them. */
  async childConfig(data: StoreData = this.read()): Promise<ChildGraph[]> {
    const valid = new Set(validateGraphs(data.graphs.map(toEntry)).graphs.map((g) => graphId(g)));
    const graphs: ChildGraph[] = [];
    for (const stored of data.graphs) {
      if (stored.disabled || !valid.has(graphId(stored))) continue;
      const child: ChildGraph = {
        name: stored.name,
        type: stored.type,
        nickname: nicknameOf(stored),
        accessLevel: stored.accessLevel,
      };
      if (stored.grantedAccessLevel && stored.token && !stored.token.revoked)
        child.grantedAccessLevel = stored.grantedAccessLevel;
      if (stored.description) child.description = stored.description;
      if (stored.confirm) child.confirm = stored.confirm;
      // A revoked token is useless; without one the child can ask Roam for a new one.
      if (stored.token && !stored.token.revoked) child.token = await this.openToken(stored);
      graphs.push(child);
    }
    return graphs;
  }
}

/** The store in `storeDir` (conf unless the shell hands in its electron-store), as core and launcher open it. */
export function openTrayStore(options: {
  storeDir: string;
  secretBox: SecretBox;
  store?: StoreBackend;
}): TrayStore {
  return new TrayStore(
    options.store ?? createConfBackend(options.storeDir),
    options.storeDir,
    options.secretBox,
  );
}
