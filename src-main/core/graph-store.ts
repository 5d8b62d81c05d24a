/**
 * The tray's persistent state in one JSON file (conf in plain Node, electron-store in the shell:
 * same API, same format), injected as a `StoreBackend`. Tokens are kept only as SecretBox
 * ciphertext plus their last 4 characters. Every change is a read-modify-write under the store
 * lock, and conf/electron-store write the file atomically (temp file + rename).
 */
import Conf from 'conf';
import * as z from 'zod';
import type { ChildGraph } from '../../src-shared/child-ipc.ts';
import type { BlockedGraphView, GraphView, TokenState } from '../../src-shared/ipc-contract.ts';
import {
  ACCESS_LEVELS,
  DEFAULT_ACCESS_LEVEL,
  GRAPH_TYPES,
  narrowestAccess,
  TOKEN_ACCESS_LEVELS,
  validateGraphs,
  type AccessLevel,
  type GraphEntry,
  type GraphType,
  type TokenAccessLevel,
} from '../../src-shared/roam-config.ts';
import { graphId } from '../../src-shared/constants.ts';
import { CoreError } from './core-error.ts';
import { withStoreLock } from './store-lock.ts';
import type { SecretBox } from './secret-box.ts';

/** The part of conf / electron-store the core uses. */
export interface StoreBackend {
  store: Record<string, unknown>;
  readonly path: string;
}

export { DEFAULT_ACCESS_LEVEL };
export const HOW_TO_UNBLOCK =
  'In Roam Desktop, open the graph, go to Settings > Graph > Local API Tokens and remove Roam Companion from the blocked list; then press Retry here.';

const storedTokenSchema = z.object({
  /** SecretBox ciphertext, base64. */
  cipher: z.string(),
  last4: z.string(),
  revoked: z.boolean().optional(),
});

const storedGraphSchema = z.object({
  name: z.string().min(1),
  type: z.enum(GRAPH_TYPES),
  nickname: z.string().optional(),
  description: z.string().optional(),
  accessLevel: z.enum(ACCESS_LEVELS),
  /** What Roam granted the stored token: the MCP child enforces the narrower of the two. */
  grantedAccessLevel: z.enum(TOKEN_ACCESS_LEVELS).optional(),
  disabled: z.boolean().optional(),
  token: storedTokenSchema.optional(),
});
export type StoredGraph = z.infer<typeof storedGraphSchema>;

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
    })
    .default({ launchAtLogin: false, defaultAccessLevel: DEFAULT_ACCESS_LEVEL }),
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
    configName: 'config',
    configFileMode: 0o600,
  });
}

export class GraphStore {
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

  /** Stores a token obtained for a graph (by the tray or a child), adding the graph if unknown. */
  async saveToken(
    graph: { name: string; type: GraphType },
    token: string,
    grantedAccessLevel: TokenAccessLevel,
  ): Promise<StoreData> {
    const sealed = await this.sealToken(token);
    return this.update((data) => {
      const existing = data.graphs.find((g) => g.name === graph.name && g.type === graph.type);
      if (existing) {
        existing.token = sealed;
        existing.grantedAccessLevel = grantedAccessLevel;
        // read-edit-own is asked as full: a full grant must not widen it.
        existing.accessLevel =
          existing.accessLevel === 'read-edit-own'
            ? (narrowestAccess([existing.accessLevel, grantedAccessLevel]) as AccessLevel)
            : grantedAccessLevel;
      } else {
        data.graphs.push({
          name: graph.name,
          type: graph.type,
          accessLevel: grantedAccessLevel,
          grantedAccessLevel,
          token: sealed,
        });
      }
      data.blocked = data.blocked.filter((b) => !(b.name === graph.name && b.type === graph.type));
    });
  }

  async markRevoked(graph: { name: string; type: GraphType }): Promise<StoreData> {
    return this.update((data) => {
      const existing = data.graphs.find((g) => g.name === graph.name && g.type === graph.type);
      if (existing?.token) existing.token.revoked = true;
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
        nickname: stored.nickname ?? stored.name,
        accessLevel: stored.accessLevel,
      };
      if (stored.grantedAccessLevel && stored.token && !stored.token.revoked)
        child.grantedAccessLevel = stored.grantedAccessLevel;
      if (stored.description) child.description = stored.description;
      // A revoked token is useless; without one the child can ask Roam for a new one.
      if (stored.token && !stored.token.revoked) child.token = await this.openToken(stored);
      graphs.push(child);
    }
    return graphs;
  }
}

function toEntry(graph: StoredGraph): GraphEntry {
  const entry: GraphEntry = { name: graph.name, type: graph.type, accessLevel: graph.accessLevel };
  if (graph.nickname !== undefined) entry.nickname = graph.nickname;
  if (graph.disabled) entry.disabled = true;
  return entry;
}

/** A graph as it is first stored: the default access level for new tokens unless one is given. */
export function newStoredGraph(
  fields: {
    name: string;
    type: StoredGraph['type'];
    nickname?: string;
    description?: string;
    accessLevel?: AccessLevel;
  },
  defaultAccessLevel: AccessLevel,
): StoredGraph {
  const graph: StoredGraph = {
    name: fields.name,
    type: fields.type,
    accessLevel: fields.accessLevel ?? defaultAccessLevel,
  };
  if (fields.nickname) graph.nickname = fields.nickname;
  if (fields.description) graph.description = fields.description;
  return graph;
}

/**
 * The MCP server's rules (shared validateGraphs), applied to every stored graph as if enabled so a
 * disabled graph cannot be re-enabled into a clash. A hosted/offline shadowing that the change
 * would introduce is refused here rather than silently ignored by the server later.
 */
export function assertGraphRules(before: readonly StoredGraph[], after: readonly StoredGraph[]): void {
  const asEnabled = (list: readonly StoredGraph[]) => list.map((g) => ({ ...toEntry(g), disabled: false }));
  const previous = validateGraphs(asEnabled(before));
  const next = validateGraphs(asEnabled(after));
  const newWarnings = next.warnings
    .filter((w) => !previous.warnings.includes(w))
    .map(
      (w) =>
        `Not saved: ${w} Keeping both would hide the offline graph from AI clients; remove one of them first.`,
    );
  const problems = [...next.errors.filter((e) => !previous.errors.includes(e)), ...newWarnings];
  if (problems.length) throw new CoreError('VALIDATION', problems.join(' '));
}

export function tokenStateOf(graph: StoredGraph, blocked: boolean, waiting: boolean): TokenState {
  if (waiting) return 'waiting';
  if (graph.token?.revoked) return 'revoked';
  if (graph.token) return 'ok';
  return blocked ? 'blocked' : 'missing';
}

export function toGraphView(graph: StoredGraph, data: StoreData, waiting: boolean): GraphView {
  const blocked = data.blocked.some((b) => b.name === graph.name && b.type === graph.type);
  const view: GraphView = {
    id: graphId(graph),
    name: graph.name,
    type: graph.type,
    nickname: graph.nickname ?? graph.name,
    accessLevel: graph.accessLevel,
    enabled: !graph.disabled,
    token: { state: tokenStateOf(graph, blocked, waiting) },
  };
  if (graph.description !== undefined) view.description = graph.description;
  if (graph.token) view.token.last4 = graph.token.last4;
  return view;
}

export function toBlockedViews(data: StoreData): BlockedGraphView[] {
  return data.blocked.map((b) => ({
    graphId: graphId(b),
    name: b.name,
    nickname: data.graphs.find((g) => graphId(g) === graphId(b))?.nickname ?? b.name,
    type: b.type,
    blockedAt: b.blockedAt,
    howToUnblock: HOW_TO_UNBLOCK,
  }));
}
