/**
 * The module-level cache of link indexes, keyed by graph name (docs/navigation.md, "Freshness").
 * Within the staleness window a call answers from the cached index with no request at all;
 * after it, one freshness check (2 requests sent together) decides whether to rebuild (4 more).
 * Our own writes drop the graph's index, window or not.
 */
import type { ToolContext } from '../tool-definition.ts';
import { CLOCK_MARGIN_MS, rebase, runCheck, unchanged, type Check } from './index-freshness.ts';
import { fetchLinkIndex, type BuiltIndex } from './index-queries.ts';
import { DEFAULT_STALENESS_MS } from './index-staleness.ts';
import type { LinkIndex } from './link-index.ts';

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

const cache = new Map<string, Entry>();
let stalenessMs = DEFAULT_STALENESS_MS;

/** Sets the staleness window (ms, 0 = check on every call). From `--index-staleness-ms` or the env. */
export function setIndexStaleness(ms: number): void {
  stalenessMs = ms;
}

export function indexStaleness(): number {
  return stalenessMs;
}

/** The graph's link index, fresh as of this call or of the window (see above). */
export function loadLinkIndex(ctx: ToolContext): Promise<LinkIndex> {
  const key = ctx.graph.name;
  const entry = cache.get(key);
  if (!entry) return build(ctx, key).pending!;
  if (entry.pending) return entry.pending;
  if (Date.now() - entry.checkedAt < stalenessMs) return entry.built.then((b) => b.index);
  entry.pending = verify(ctx, key, entry).finally(() => {
    entry.pending = undefined;
  });
  return entry.pending;
}

/** Checks first (the baseline must predate the build), then builds; a failure drops the entry. */
function build(ctx: ToolContext, key: string, check?: Check): Entry {
  const started = Date.now();
  const entry: Entry = {
    built: undefined as unknown as Promise<BuiltIndex>,
    checkedAt: started,
    countedAt: started,
  };
  entry.built = (async () => {
    const seen = check ?? (await runCheck(ctx, started - CLOCK_MARGIN_MS, false));
    const built = await fetchLinkIndex(ctx);
    entry.baseline = rebase(seen, built.pages, Date.now());
    return built;
  })();
  entry.pending = entry.built.then((b) => b.index);
  cache.set(key, entry);
  entry.pending.then(
    () => (entry.pending = undefined),
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  return entry;
}

async function verify(ctx: ToolContext, key: string, entry: Entry): Promise<LinkIndex> {
  const started = Date.now();
  const built = await entry.built;
  const recount = started - entry.countedAt >= RECOUNT_MS;
  const check = await runCheck(ctx, entry.baseline!.since, recount);
  if (cache.get(key) === entry && unchanged(entry.baseline!, check, built)) {
    entry.checkedAt = started;
    if (recount) entry.countedAt = started;
    return built.index;
  }
  if (cache.get(key) !== entry && cache.get(key)) return loadLinkIndex(ctx);
  return build(ctx, key, check).pending!;
}

/**
 * Drops a graph's cached index (all graphs without a name). For this server's own writes, so the
 * next call rebuilds whatever the check would say and whatever the window (e.g. a move, which
 * may leave every count and the newest edit time where they were).
 */
export function invalidateLinkIndex(graphName?: string): void {
  if (graphName === undefined) cache.clear();
  else cache.delete(graphName);
}
