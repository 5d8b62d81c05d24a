/**
 * Comments. A comment is a container block attributed to an author,
 * holding the reply blocks; it references the commented block (so it counts toward its refs)
 * and is not a child of it. The emulator keeps the containers on a page of their own,
 * "roam/comments" (how Roam stores them is not documented).
 */
import { blockMarkdown } from './ai-markdown.ts';
import { insertBlocks } from './insert-blocks.ts';
import { parseMarkdownBlocks } from './markdown-blocks.ts';
import { DEFAULT_AI_USER, nextTime, type RoamGraph } from './roam-graph.ts';
import type { CommentSpec } from './types.ts';

export const COMMENTS_PAGE = 'roam/comments';
const AUTHOR = ':comment/author';

function commentedBlock(graph: RoamGraph, uid: unknown, what: string): number {
  if (typeof uid !== 'string' || uid === '') throw new Error(`${what}: a block uid is required.`);
  const eid = graph.eidByUid(uid);
  if (eid === undefined)
    throw new Error(`${what}: no block with uid "${uid}" exists in graph '${graph.name}'.`);
  if (graph.isPage(eid)) throw new Error(`${what}: "${uid}" is a page; comments attach to blocks.`);
  return eid;
}

/** Comment containers on `eid`, oldest first. */
function threadOf(graph: RoamGraph, eid: number): number[] {
  return graph
    .referrers(eid)
    .filter((r) => graph.attr<string>(r, AUTHOR) !== undefined)
    .sort(
      (a, b) => (graph.attr<number>(a, ':create/time') ?? 0) - (graph.attr<number>(b, ':create/time') ?? 0),
    );
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function newContainer(graph: RoamGraph, blockUid: string, author: string, createdAt?: number): number {
  const uid = graph.createBlock(
    { 'page-title': COMMENTS_PAGE, order: 'last' },
    { string: `((${blockUid}))` },
  );
  const eid = graph.eidByUid(uid) as number;
  graph.transactOps([
    [':db/add', eid, AUTHOR, author],
    ...(createdAt === undefined ? [] : [[':db/add', eid, ':create/time', createdAt]]),
  ]);
  return eid;
}

/** `data.block.addComment` → {uids, parentUid}. Same author, same block, same day: added to that comment. */
export function addComment(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.block.addComment';
  const input = (args[0] ?? {}) as Record<string, unknown>;
  const eid = commentedBlock(graph, input['block-uid'], what);
  const plain = input['reply-string'];
  const markdown = input['reply-markdown'];
  if ((plain === undefined) === (markdown === undefined)) {
    throw new Error(`${what}: pass exactly one of "reply-string" and "reply-markdown".`);
  }
  const text = plain ?? markdown;
  if (typeof text !== 'string' || text.trim() === '')
    throw new Error(`${what}: the reply must be a non-empty string.`);
  const author = graph.displayNames.ai ?? DEFAULT_AI_USER;
  const today = utcDay(nextTime());
  const existing = threadOf(graph, eid).find(
    (c) => graph.attr(c, AUTHOR) === author && utcDay(graph.attr<number>(c, ':create/time') ?? 0) === today,
  );
  const container = existing ?? newContainer(graph, input['block-uid'] as string, author);
  const containerUid = graph.attr<string>(container, ':block/uid') as string;
  const blocks =
    plain !== undefined ? [{ string: plain as string, children: [] }] : parseMarkdownBlocks(text);
  return { uids: insertBlocks(graph, containerUid, blocks, 'last'), parentUid: containerUid };
}

function editedTime(graph: RoamGraph, container: number): number {
  return Math.max(...graph.subtree(container).map((e) => graph.attr<number>(e, ':edit/time') ?? 0));
}

/** `data.ai.getComments` → {queriedAt, total, comments: [...]}, oldest first. */
export function getComments(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.ai.getComments';
  const input = (args[0] ?? {}) as { uid?: unknown; maxDepth?: number | null };
  const eid = commentedBlock(graph, input.uid, what);
  const comments = threadOf(graph, eid).map((container) => {
    const replies = graph.children(container);
    const single = replies.length === 1 && graph.children(replies[0] as number).length === 0;
    return {
      parentUid: graph.attr<string>(container, ':block/uid'),
      author: graph.attr<string>(container, AUTHOR),
      createdTime: new Date(graph.attr<number>(container, ':create/time') ?? 0).toISOString(),
      editedTime: new Date(editedTime(graph, container)).toISOString(),
      markdown: replies.map((r) => blockMarkdown(graph, r, input.maxDepth)).join('\n'),
      singleEditableUid: single ? graph.attr<string>(replies[0] as number, ':block/uid') : null,
    };
  });
  return { queriedAt: new Date().toISOString(), total: comments.length, comments };
}

/** Seeds comments written by others (GraphSpec.comments). */
export function seedComments(graph: RoamGraph, specs: readonly CommentSpec[]): void {
  for (const spec of specs) {
    commentedBlock(graph, spec.block, 'GraphSpec.comments');
    const container = newContainer(graph, spec.block, spec.author, Date.parse(spec.createdTime));
    const uid = graph.attr<string>(container, ':block/uid') as string;
    insertBlocks(graph, uid, [{ string: spec.text, children: [] }], 'last');
  }
}
