/**
 * What a delete or a rename does to the rest of the graph, as Roam does it: referring block strings and page titles are rewritten,
 * each rewrite stamped like any change by the acting user.
 */
import datascript, { type DB } from 'datascript';
import { delinkPage, expandedTexts, inlineBlockRefs, renameLinks } from './link-rewrite.ts';

/** What the cascades need of the graph (roam-graph.ts calls them, so they must not import it). */
export interface CascadeGraph {
  readonly db: DB;
  attr<T = unknown>(eid: number, attr: string): T | undefined;
  eidByTitle(title: string): number | undefined;
  isPage(eid: number): boolean;
  referrers(eid: number): number[];
  rewriteString(eid: number, text: string, skip?: ReadonlySet<string>): void;
  retitle(eid: number, title: string): void;
}

/** Pages (other than `except`) whose title `rewrite` changes, with their new title. */
function titlesChangedBy(
  graph: CascadeGraph,
  rewrite: (title: string) => string,
  except: ReadonlySet<number>,
): Array<[number, string]> {
  const changed: Array<[number, string]> = [];
  for (const datom of datascript.datoms(graph.db, ':aevt', ':node/title')) {
    const title = datom.v as string;
    const next = rewrite(title);
    if (next !== title && !except.has(datom.e)) changed.push([datom.e, next]);
  }
  return changed;
}

/** Renames the pages whose title `rewrite` changes, unless the new title is taken (then left as is). */
function retitleAll(graph: CascadeGraph, rewrite: (title: string) => string, except: ReadonlySet<number>) {
  for (const [eid, title] of titlesChangedBy(graph, rewrite, except)) {
    if (graph.eidByTitle(title) === undefined) renameCascade(graph, eid, title);
  }
}

/** Rewrites the string of every block referring to `target` (outside `except`) that `rewrite` changes. */
function rewriteReferrers(
  graph: CascadeGraph,
  target: number,
  rewrite: (text: string) => string,
  except: ReadonlySet<number>,
  skip?: ReadonlySet<string>,
): void {
  rewriteBlocks(graph, graph.referrers(target), rewrite, except, skip);
}

/** Rewrites the string of each of `blocks` (outside `except`) that `rewrite` changes. */
function rewriteBlocks(
  graph: CascadeGraph,
  blocks: Iterable<number>,
  rewrite: (text: string) => string,
  except: ReadonlySet<number>,
  skip?: ReadonlySet<string>,
): void {
  for (const referrer of blocks) {
    const text = graph.attr<string>(referrer, ':block/string');
    if (text === undefined || except.has(referrer)) continue;
    const next = rewrite(text);
    if (next !== text) graph.rewriteString(referrer, next, skip);
  }
}

/**
 * A rename of page `eid` to `title`: pages whose titles link to it are renamed in turn, then the
 * links in referring blocks are rewritten to the new title.
 */
export function renameCascade(graph: CascadeGraph, eid: number, title: string): void {
  const old = graph.attr<string>(eid, ':node/title') as string;
  graph.retitle(eid, title);
  const rewrite = (text: string) => renameLinks(text, old, title);
  retitleAll(graph, rewrite, new Set([eid]));
  rewriteReferrers(graph, eid, rewrite, new Set([eid]));
}

/**
 * Before `doomed` (a block's subtree, or a page and its blocks) is retracted: `((uid))` references
 * to its blocks elsewhere become their text, and links to a doomed page become its plain title.
 */
export function deleteCascade(graph: CascadeGraph, doomed: readonly number[]): void {
  const gone = new Set(doomed);
  const raw = new Map<string, string>();
  for (const eid of doomed) {
    const text = graph.attr<string>(eid, ':block/string');
    if (text !== undefined) raw.set(graph.attr<string>(eid, ':block/uid') as string, text);
  }
  const texts = expandedTexts(raw);
  const inline = (text: string) => inlineBlockRefs(text, texts);
  if (texts.size > 0) {
    retitleAll(graph, inline, gone);
    // Each referring block is rewritten once, however many doomed blocks it refers to: a second
    // pass would also replace the references the first one wrote in (a self-referring block's).
    const referrers = new Set(doomed.flatMap((eid) => graph.referrers(eid)));
    rewriteBlocks(graph, referrers, inline, gone);
  }
  for (const page of doomed.filter((eid) => graph.isPage(eid))) {
    const title = graph.attr<string>(page, ':node/title') as string;
    const delink = (text: string) => delinkPage(text, title);
    retitleAll(graph, delink, gone);
    rewriteReferrers(graph, page, delink, gone, new Set([title]));
  }
}
