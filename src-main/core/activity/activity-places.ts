/**
 * Names for the places the journal knows only by uid (where a block was moved from and to, the
 * block new ones went under): the page's title, and the parent block's text when it is a block.
 * Asked of Roam with the graph's token (two Datalog queries per graph), kept once found; when Roam
 * cannot answer, the place stays unnamed (never shown as a uid).
 */
import { graphId } from '../../../src-shared/constants.ts';
import { describeChange, type Caller, type Change } from '../../../src-mcp/changes/index.ts';

export type PlaceNames = ReadonlyMap<string, string>;

/** The key of one uid in one graph. */
export const placeKey = (change: Pick<Change, 'graph' | 'graphType'>, uid: string) =>
  `${graphId({ name: change.graph, type: change.graphType })}:${uid}`;

const PAGES = '[:find ?uid ?title :in $ [?uid ...] :where [?e :block/uid ?uid] [?e :node/title ?title]]';
const BLOCKS =
  '[:find ?uid ?title ?text :in $ [?uid ...] :where [?e :block/uid ?uid] [?e :block/page ?p] [?p :node/title ?title] [?e :block/string ?text]]';
const TEXTS = '[:find ?uid ?text :in $ [?uid ...] :where [?e :block/uid ?uid] [?e :block/string ?text]]';
const MAX_QUOTE = 40;

const quote = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `'${flat.length > MAX_QUOTE ? `${flat.slice(0, MAX_QUOTE - 1)}…` : flat}'`;
};

/** The uids a change names its places by: a move's parents, new blocks' parent when no page is named. */
export function placeUids(change: Change): string[] {
  return describeChange(change).flatMap((op) =>
    op.page ? [] : [op.from?.parent, op.to?.parent].filter((uid) => uid !== undefined),
  );
}

/** An undo left part of this change alone because someone changed it since. */
const conflicted = (change: Change) =>
  change.lastUndo?.results.some((r) => r.status === 'conflict' || (r.conflicts?.length ?? 0) > 0) ?? false;

/** The blocks a conflicted change edited: their text now is shown beside the agent's. */
function editedUids(change: Change): string[] {
  if (!conflicted(change)) return [];
  return describeChange(change).flatMap((op) =>
    op.kind === 'edit' && op.after !== undefined && op.uid !== undefined ? [op.uid] : [],
  );
}

export function placeNamer(caller: Caller) {
  const known = new Map<string, string>();
  async function ask(graph: Change, uids: string[]): Promise<void> {
    const rows = async (query: string) => {
      const answer = await caller(graph.graph, 'data.q', [query, uids], graph.graphType);
      return Array.isArray(answer) ? (answer as unknown[][]) : [];
    };
    for (const [uid, title] of await rows(PAGES))
      known.set(placeKey(graph, String(uid)), `'${String(title)}'`);
    for (const [uid, title, text] of await rows(BLOCKS))
      known.set(placeKey(graph, String(uid)), `under ${quote(String(text))} in '${String(title)}'`);
  }
  return {
    /**
     * The text now of the blocks that conflicted changes edited (asked each time: it is what a
     * person may have just changed). Roam not answering: none.
     */
    async textsNow(changes: readonly Change[]): Promise<PlaceNames> {
      const texts = new Map<string, string>();
      const byGraph = new Map<string, { graph: Change; uids: string[] }>();
      for (const change of changes) {
        const uids = editedUids(change);
        if (uids.length === 0) continue;
        const key = graphId({ name: change.graph, type: change.graphType });
        const entry = byGraph.get(key) ?? { graph: change, uids: [] };
        entry.uids.push(...uids);
        byGraph.set(key, entry);
      }
      await Promise.all(
        [...byGraph.values()].map(async ({ graph, uids }) => {
          const answer = await caller(
            graph.graph,
            'data.q',
            [TEXTS, [...new Set(uids)]],
            graph.graphType,
          ).catch(() => []);
          for (const [uid, text] of Array.isArray(answer) ? (answer as unknown[][]) : [])
            texts.set(placeKey(graph, String(uid)), String(text));
        }),
      );
      return texts;
    },
    /** Names for every place these changes mention, asking Roam only for those not known yet. */
    async names(changes: readonly Change[]): Promise<PlaceNames> {
      const missing = new Map<string, { graph: Change; uids: Set<string> }>();
      for (const change of changes) {
        for (const uid of placeUids(change)) {
          if (known.has(placeKey(change, uid))) continue;
          const key = graphId({ name: change.graph, type: change.graphType });
          const entry = missing.get(key) ?? { graph: change, uids: new Set<string>() };
          entry.uids.add(uid);
          missing.set(key, entry);
        }
      }
      await Promise.all(
        [...missing.values()].map(
          ({ graph, uids }) => ask(graph, [...uids]).catch(() => undefined), // Roam down, no token: unnamed this time
        ),
      );
      return known;
    },
  };
}
