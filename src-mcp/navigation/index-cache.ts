/**
 * The module-level cache of link indexes, keyed by graph name. Every navigation call pays one
 * round trip (the fingerprint); the index is rebuilt only when the fingerprint moved.
 */
import type { ToolContext } from '../tool-definition.ts';
import { fetchFingerprint, fetchLinkIndex } from './index-queries.ts';
import type { LinkIndex } from './link-index.ts';

interface Entry {
  fingerprint: string;
  index: Promise<LinkIndex>;
}

const cache = new Map<string, Entry>();

/** The graph's link index, fresh as of this call: 1 round trip when cached, 4 when (re)built. */
export async function loadLinkIndex(ctx: ToolContext): Promise<LinkIndex> {
  const fingerprint = await fetchFingerprint(ctx);
  const key = ctx.graph.name;
  const cached = cache.get(key);
  if (cached?.fingerprint === fingerprint) return cached.index;
  // Concurrent calls that see the same fingerprint share one build.
  const entry: Entry = { fingerprint, index: fetchLinkIndex(ctx, fingerprint) };
  cache.set(key, entry);
  entry.index.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return entry.index;
}

/**
 * Drops a graph's cached index (all graphs without a name). For this server's own writes, so the
 * next call rebuilds even if a write left the fingerprint unchanged (e.g. a move).
 */
export function invalidateLinkIndex(graphName?: string): void {
  if (graphName === undefined) cache.clear();
  else cache.delete(graphName);
}
