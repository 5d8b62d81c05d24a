/**
 * The cache of link indexes, keyed by graph name (docs/navigation.md, "Freshness"): one
 * `LinkIndexes` per server, made where it is built (src-mcp/process/run-server.ts) with its
 * settings (index-staleness.ts) and lent to every handler as `ctx.linkIndexes`.
 * Within the staleness window a call answers from the cached index with no request at all;
 * after it, one freshness check (2 requests sent together) decides whether to rebuild (4 more).
 * A process's first call resumes the index an earlier process kept on disk when the check (with
 * a block recount and the graph's anchor) finds nothing changed since (index-store.ts).
 * Our own writes drop the graph's index, in memory and on disk, window or not.
 */
import { log } from '../contract/log.ts';
import type { ToolContext } from '../contract/tool-definition.ts';
import type { GraphIdentity } from './index-codec.ts';
import {
  anchorHolds,
  anchorOf,
  CLOCK_MARGIN_MS,
  rebase,
  runCheck,
  unchanged,
  type Check,
} from './index-freshness.ts';
import { fetchLinkIndex, type BuiltIndex } from './index-queries.ts';
import type { LinkIndexSettings } from './index-staleness.ts';
import { dropKeptIndex, keepIndex, readKeptIndex } from './index-store.ts';
import type { LinkIndex } from './link-index.ts';
import { withGrowingYoungGeneration } from './young-generation.ts';

declare module '../contract/tool-definition.ts' {
  /** Every handler may read a graph's link index, and the server drops it after a write. */
  interface ServerServices {
    linkIndexes: LinkIndexes;
  }
}

/** How often a check also recounts blocks (a deletion need not move any `:edit/time`). */
export const RECOUNT_MS = 30_000;

interface Entry {
  built: Promise<BuiltIndex>;
  /** What the last check saw, re-based after the build. */
  baseline?: Check;
  /** When the last successful check started (our clock). */
  checkedAt: number;
  countedAt: number;
  /** A check or build in flight: concurrent calls share its answer. */
  pending?: Promise<LinkIndex>;
}

/** The graph's link index, fresh as of this call or of the window (see above). */
export function loadLinkIndex(ctx: ToolContext): Promise<LinkIndex> {
  return ctx.linkIndexes.load(ctx);
}

export class LinkIndexes {
  private readonly cache = new Map<string, Entry>();
  /** Graphs whose kept index our own write dropped: not resumed from disk until rebuilt here. */
  private readonly distrusted = new Set<string>();
  private readonly settings: Readonly<LinkIndexSettings>;

  constructor(settings: LinkIndexSettings) {
    this.settings = { ...settings };
  }

  /** `ctx`'s graph's index, fresh as of this call or of the window. */
  load(ctx: ToolContext): Promise<LinkIndex> {
    const key = ctx.graph.name;
    const entry = this.cache.get(key);
    if (!entry) return this.build(ctx, key).pending!;
    if (entry.pending) return entry.pending;
    if (Date.now() - entry.checkedAt < this.settings.stalenessMs) return entry.built.then((b) => b.index);
    entry.pending = this.verify(ctx, key, entry).finally(() => {
      entry.pending = undefined;
    });
    return entry.pending;
  }

  /**
   * Resumes the kept index or checks first (the baseline must predate the build), then builds and
   * keeps the result; a failure drops the entry.
   */
  private build(ctx: ToolContext, key: string, check?: Check): Entry {
    const started = Date.now();
    const entry: Entry = {
      built: undefined as unknown as Promise<BuiltIndex>,
      checkedAt: started,
      countedAt: started,
    };
    entry.built = (async () => {
      let seen = check;
      if (!seen) {
        const resumed = await this.resume(ctx, key, started);
        if ('built' in resumed) {
          entry.baseline = resumed.baseline;
          return resumed.built;
        }
        seen = resumed.check ?? (await runCheck(ctx, started - CLOCK_MARGIN_MS, false));
      }
      const built = await withGrowingYoungGeneration(() => fetchLinkIndex(ctx));
      entry.baseline = rebase(seen, built.pages, Date.now());
      if (this.cache.get(key) === entry) this.keep(ctx, key, built, entry.baseline);
      return built;
    })();
    entry.pending = entry.built.then((b) => b.index);
    this.cache.set(key, entry);
    entry.pending.then(
      () => (entry.pending = undefined),
      () => {
        if (this.cache.get(key) === entry) this.cache.delete(key);
      },
    );
    return entry;
  }

  private async verify(ctx: ToolContext, key: string, entry: Entry): Promise<LinkIndex> {
    const started = Date.now();
    const built = await entry.built;
    const recount = started - entry.countedAt >= RECOUNT_MS;
    const check = await runCheck(ctx, entry.baseline!.since, recount);
    if (this.cache.get(key) === entry && unchanged(entry.baseline!, check, built)) {
      entry.checkedAt = started;
      if (recount) entry.countedAt = started;
      return built.index;
    }
    if (this.cache.get(key) !== entry && this.cache.get(key)) return this.load(ctx);
    return this.build(ctx, key, check).pending!;
  }

  /**
   * The kept index when the check finds the graph as it was (the same anchor, no edit, the same
   * page and block counts); else the check, which predates the build that follows.
   */
  private async resume(ctx: ToolContext, key: string, now: number): Promise<Resumed> {
    const { dir } = this.settings;
    const identity = identityOf(ctx);
    if (!dir || !identity || this.distrusted.has(key)) return {};
    const read = await readKeptIndex(dir, identity, now);
    if ('doubt' in read) {
      if (read.doubt !== 'none kept')
        log('info', `link index of '${ctx.graph.nickname}' rebuilt: ${read.doubt}.`);
      return {};
    }
    const { kept } = read;
    const [check, same] = await Promise.all([
      runCheck(ctx, kept.baseline.since, true),
      anchorHolds(ctx, kept.anchor),
    ]);
    if (same && unchanged(kept.baseline, check, kept.built))
      return { built: kept.built, baseline: kept.baseline };
    return { check };
  }

  /**
   * Writes the index for the next process, after the answer (a failure costs only that). Only a
   * build still current is kept: one our own write overtook is not.
   */
  private keep(ctx: ToolContext, key: string, built: BuiltIndex, baseline: Check): void {
    const { dir } = this.settings;
    const identity = identityOf(ctx);
    if (!dir || !identity) return;
    this.distrusted.delete(key);
    keepIndex(dir, { identity, builtAt: Date.now(), anchor: anchorOf(built.index), baseline, built }).catch(
      (error: unknown) => log('warn', `Could not keep the link index on disk: ${String(error)}`),
    );
  }

  /**
   * Drops a graph's cached index (all graphs without a name). For this server's own writes, so the
   * next call rebuilds whatever the check would say and whatever the window (e.g. a move, which
   * may leave every count and the newest edit time where they were). The kept copy goes too.
   */
  invalidate(graphName?: string, type?: string): void {
    const names = graphName === undefined ? [...this.cache.keys()] : [graphName];
    if (graphName === undefined) this.cache.clear();
    else this.cache.delete(graphName);
    const { dir } = this.settings;
    for (const name of names) {
      this.distrusted.add(name);
      if (dir && type !== undefined) void dropKeptIndex(dir, { name, type });
    }
  }
}

function identityOf(ctx: ToolContext): GraphIdentity | undefined {
  return ctx.graph.type === undefined ? undefined : { name: ctx.graph.name, type: ctx.graph.type };
}

type Resumed = { built: BuiltIndex; baseline: Check } | { check?: Check };
