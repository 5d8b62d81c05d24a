/** The roamAlphaAPI actions the emulator answers, by dotted name, as one table. */
import * as ai from './ai-actions.ts';
import { BATCH_ACTIONS } from './batch-actions.ts';
import { DELETION_ACTIONS, OLDER_DELETION_ACTIONS } from './deletion-actions.ts';
import { FILE_ACTIONS } from './file-actions.ts';
import { getGraphGuidelines, getGraphGuidelinesOlder } from './guidelines-action.ts';
import { runPull, runPullMany, runQuery } from './edn-query.ts';
import { parseMarkdownBlocks } from './markdown-blocks.ts';
import type { ParsedBlock } from './markdown-blocks.ts';
import { dateToPageTitle, dateToPageUid, toDate } from './roam-dates.ts';
import type { BlockFields, BlockLocation, RoamGraph } from './roam-graph.ts';
import { generateUid } from './roam-uid.ts';
import { addComment, getComments } from './comment-actions.ts';
import { callExtensionTool, reloadDeveloperExtensions } from './extension-actions.ts';
import { insertBlocks } from './insert-blocks.ts';
import { getBlockWithReferences, getPageWithReferences } from './linked-references.ts';
import { roamQuery } from './roam-query.ts';
import { addShortcut, removeShortcut } from './shortcut-actions.ts';
import { suggestLinks } from './suggest-links.ts';
import { uiActions } from './ui-actions.ts';

export interface ActionContext {
  semanticSearch: boolean;
  /** An older build's result shapes (GraphSpec.olderShapes). */
  olderShapes?: boolean;
}

type Handler = (graph: RoamGraph, args: unknown[]) => unknown;

function first<T>(args: unknown[], what: string, example: string): T {
  const value = args[0];
  if (!value || typeof value !== 'object')
    throw new Error(`${what}: the first argument must be an object, e.g. ${example}.`);
  return value as T;
}

interface FromMarkdownArgs {
  location?: BlockLocation;
  page?: { title?: string; uid?: string };
  'markdown-string'?: string;
}

function markdownOf(input: FromMarkdownArgs, what: string): ParsedBlock[] {
  if (typeof input['markdown-string'] !== 'string') {
    throw new Error(`${what}: "markdown-string" is required, e.g. "- first\\n  - child".`);
  }
  return parseMarkdownBlocks(input['markdown-string']);
}

const HANDLERS: Record<string, Handler> = {
  q: runQuery,
  'data.q': runQuery,
  'data.async.q': runQuery,
  'data.pull': runPull,
  'data.pull_many': runPullMany,
  'data.ai.getPage': getPageWithReferences,
  'data.ai.getBlock': getBlockWithReferences,
  'data.ai.getBacklinks': ai.getBacklinks,
  'data.ai.search': ai.search,
  'data.ai.searchTemplates': ai.searchTemplates,
  'data.block.create': (graph, args) => {
    const input = first<{ location?: BlockLocation; block?: BlockFields }>(
      args,
      'data.block.create',
      '{"location": {"parent-uid": "abc123xyz", "order": "last"}, "block": {"string": "Hello"}}',
    );
    graph.createBlock(input.location, input.block);
    return null;
  },
  'data.block.update': (graph, args) => {
    graph.updateBlock(
      first<{ block?: BlockFields }>(args, 'data.block.update', '{"block": {"uid": "..."}}').block,
    );
    return null;
  },
  'data.block.move': (graph, args) => {
    const input = first<{ location?: BlockLocation; block?: { uid?: string } }>(
      args,
      'data.block.move',
      '{"location": {"parent-uid": "...", "order": 0}, "block": {"uid": "..."}}',
    );
    graph.moveBlock(input.location, input.block);
    return null;
  },
  'data.block.fromMarkdown': (graph, args) => {
    const what = 'data.block.fromMarkdown';
    const input = first<FromMarkdownArgs & { open?: unknown }>(
      args,
      what,
      '{"location": {"parent-uid": "..."}, "markdown-string": "- a"}',
    );
    const blocks = markdownOf(input, what);
    const parentUid = fromMarkdownParent(graph, input.location, what);
    const uids = insertBlocks(graph, parentUid, blocks, input.location?.order, input.open !== false);
    return { uids };
  },
  'data.page.create': (graph, args) => {
    graph.createPage(
      first<{ page?: { title?: string; uid?: string } }>(
        args,
        'data.page.create',
        '{"page": {"title": "..."}}',
      ).page,
    );
    return null;
  },
  'data.page.fromMarkdown': (graph, args) => {
    const what = 'data.page.fromMarkdown';
    const input = first<FromMarkdownArgs>(args, what, '{"page": {"title": "..."}, "markdown-string": "- a"}');
    const blocks = markdownOf(input, what);
    const { uid } = graph.createPage(input.page);
    insertBlocks(graph, uid, blocks, 'last');
    return null;
  },
  'data.page.update': (graph, args) => {
    graph.updatePage(
      first<{ page?: { uid?: string; title?: string } }>(
        args,
        'data.page.update',
        '{"page": {"uid": "...", "title": "..."}}',
      ).page,
    );
    return null;
  },
  'util.generateUID': () => generateUid(),
  'util.dateToPageTitle': (_graph, args) => dateToPageTitle(toDate(args[0])),
  'util.dateToPageUid': (_graph, args) => dateToPageUid(toDate(args[0])),
  'graph.name': (graph) => graph.name,
  'graph.type': (graph) => graph.type,
};

/** What an older build answers differently (GraphSpec.olderShapes). */
const OLDER_SHAPES: Record<string, Handler> = {
  'data.ai.getGraphGuidelines': getGraphGuidelinesOlder,
  'data.ai.getPage': ai.getPage,
  'data.ai.getBlock': ai.getBlock,
  // Builds before `open` silently ignore the key.
  'data.block.fromMarkdown': (graph, args) => {
    const [input, ...rest] = args as [Record<string, unknown> | undefined, ...unknown[]];
    const { open: _ignored, ...kept } = input ?? {};
    return HANDLERS['data.block.fromMarkdown']!(graph, [kept, ...rest]);
  },
  ...OLDER_DELETION_ACTIONS,
};

/**
 * Capture and desktop: the guidelines object, comments, shortcuts, discovery, extensions, desktop UI,
 * deletion reports, files, batch edits.
 */
const CAPTURE_DESKTOP_HANDLERS: Record<string, Handler> = {
  'data.ai.getGraphGuidelines': getGraphGuidelines,
  'data.block.addComment': addComment,
  'data.ai.getComments': getComments,
  'data.page.addShortcut': addShortcut,
  'data.page.removeShortcut': removeShortcut,
  'data.ai.suggestLinks': suggestLinks,
  'data.ai.roamQuery': roamQuery,
  'data.ai.callExtensionTool': callExtensionTool,
  'depot.reloadDeveloperExtensions': reloadDeveloperExtensions,
  ...uiActions,
  ...DELETION_ACTIONS,
  ...FILE_ACTIONS,
  ...BATCH_ACTIONS,
};
Object.assign(HANDLERS, CAPTURE_DESKTOP_HANDLERS);

/**
 * The parent of `data.block.fromMarkdown`'s blocks: a uid, a page title (created if missing) or
 * a daily note `{"daily-note-page": "MM-DD-YYYY"}`; with `nest-under-str`, the direct child whose
 * text equals it exactly, created at the end when there is none.
 */
function fromMarkdownParent(
  graph: RoamGraph,
  location: (BlockLocation & { 'nest-under-str'?: unknown }) | undefined,
  what: string,
): string {
  if (!location?.['parent-uid'] && !location?.['page-title']) {
    throw new Error(`${what}: "location" needs "parent-uid" or "page-title".`);
  }
  let parentUid = location['parent-uid'];
  if (parentUid !== undefined && graph.eidByUid(parentUid) === undefined) {
    throw new Error(`${what}: no block or page with uid "${parentUid}" exists in graph '${graph.name}'.`);
  }
  if (parentUid === undefined) {
    const pageTitle = location['page-title'] as BlockLocation['page-title'];
    const title = typeof pageTitle === 'string' ? pageTitle : dailyNoteTitle(pageTitle, what);
    const eid = graph.eidByTitle(title) ?? graph.createPage({ title }).eid;
    parentUid = graph.attr<string>(eid, ':block/uid') as string;
  }
  const section = location['nest-under-str'];
  if (section === undefined) return parentUid;
  if (typeof section !== 'string') throw new Error(`${what}: "nest-under-str" must be a string.`);
  const parent = graph.eidByUid(parentUid) as number;
  const found = graph.children(parent).find((c) => graph.attr<string>(c, ':block/string') === section);
  if (found !== undefined) return graph.attr<string>(found, ':block/uid') as string;
  return graph.createBlock({ 'parent-uid': parentUid, order: 'last' }, { string: section });
}

function dailyNoteTitle(value: unknown, what: string): string {
  const date = (value as { 'daily-note-page'?: unknown } | undefined)?.['daily-note-page'];
  const match = typeof date === 'string' ? /^(\d{2})-(\d{2})-(\d{4})$/.exec(date) : null;
  if (!match) {
    throw new Error(
      `${what}: "page-title" must be a title or {"daily-note-page": "MM-DD-YYYY"}, got ${JSON.stringify(value)}.`,
    );
  }
  return dateToPageTitle(new Date(Date.UTC(Number(match[3]), Number(match[1]) - 1, Number(match[2]))));
}

/** The handler for `action`, or undefined (→ UNKNOWN_ACTION). */
export function findAction(action: string, context: ActionContext): Handler | undefined {
  if (action === 'data.ai.semanticSearch') return context.semanticSearch ? ai.semanticSearch : undefined;
  if (context.olderShapes && Object.hasOwn(OLDER_SHAPES, action)) return OLDER_SHAPES[action];
  return Object.hasOwn(HANDLERS, action) ? HANDLERS[action] : undefined;
}
