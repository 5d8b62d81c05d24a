/**
 * Roam Desktop's UI (the ui.* actions): what the user has open and selected, and opening
 * pages or blocks for them. These change what the user sees, never graph data, so they need no
 * graph ticket and stay available in --read-only mode. Roam does not hide anything in UI answers;
 * we redact the uids and text of hidden blocks (src-mcp/roam/hidden-blocks.ts).
 */
import * as z from 'zod';
import { fetchHiddenContent, HIDDEN_MARK, type HiddenContent } from '../../roam/hidden-blocks.ts';
import { withMissingCheck } from '../../contract/not-found.ts';
import { defineTool, type ToolContext, type ToolDefinition } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { callFeature } from '../../contract/roam-feature.ts';

/** Text fields that hold a block's own text: redacted with its uid. */
const TEXT_KEYS = ['block-string'];

/** A field naming a hidden block: its uid, or an id built from it (`window-id`). */
function namesHidden(value: string, hidden: HiddenContent): boolean {
  if (hidden.uids.has(value)) return true;
  // Roam's uids are 9 characters; shorter ones would match by accident inside other ids.
  for (const uid of hidden.uids) if (uid.length >= 6 && value.includes(uid)) return true;
  return false;
}

/** A UI record with every field naming a hidden block (uids, window ids) and its text replaced. */
function redact(record: unknown, hidden: HiddenContent): { value: unknown; redacted: boolean } {
  if (!record || typeof record !== 'object') return { value: record, redacted: false };
  const copy = { ...(record as Record<string, unknown>) };
  let redacted = false;
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value !== 'string' || TEXT_KEYS.includes(key) || !namesHidden(value, hidden)) continue;
    copy[key] = HIDDEN_MARK;
    redacted = true;
  }
  // A record about a hidden block also loses any id built from its uid, however short the uid
  // (namesHidden looks for uids inside other ids only from 6 characters on).
  const named = Object.values(record as Record<string, unknown>).filter(
    (value): value is string => typeof value === 'string' && hidden.uids.has(value),
  );
  for (const [key, value] of Object.entries(copy))
    if (typeof value === 'string' && named.some((uid) => value.includes(uid))) copy[key] = HIDDEN_MARK;
  if (redacted) for (const key of TEXT_KEYS) if (key in copy) copy[key] = HIDDEN_MARK;
  return { value: copy, redacted };
}

async function readUi(ctx: ToolContext, actions: [string, string]) {
  const [first, second, hidden] = await Promise.all([
    callFeature(ctx, actions[0], []),
    callFeature(ctx, actions[1], []),
    fetchHiddenContent(ctx),
  ]);
  let count = 0;
  const clean = (value: unknown) => {
    const out = redact(value, hidden);
    if (out.redacted) count++;
    return out.value;
  };
  const list = (value: unknown) => (Array.isArray(value) ? value.map(clean) : []);
  return {
    first: clean(first ?? null),
    second: list(second),
    note:
      count > 0
        ? `${count} item(s) the user hid from AI (#.rm-hide / #.rm-private) are shown as ${HIDDEN_MARK}.`
        : undefined,
  };
}

const uiRead = { idempotentHint: true, openWorldHint: false } as const;
const uiOpen = { destructiveHint: false, openWorldHint: false } as const;

async function openTarget(
  ctx: ToolContext,
  uid: string | undefined,
  title: string | undefined,
  run: () => Promise<unknown>,
) {
  const ref = uid !== undefined ? { uid } : { title: title as string };
  const what = uid !== undefined ? `Page or block uid '${uid}'` : `Page '${title}'`;
  await withMissingCheck(ctx, [{ what, ref }], run);
}

export const desktopUiTools: ToolDefinition[] = [
  defineTool({
    name: 'get_open_windows',
    title: 'Get open windows',
    description: "What Roam Desktop shows: the main window's view and the right sidebar's panes.",
    toolset: 'ui',
    feature: 'desktop UI access',
    actions: ['ui.mainWindow.getOpenView', 'ui.rightSidebar.getWindows', 'data.q'],
    scope: 'graph',
    annotations: uiRead,
    inputSchema: {},
    async handler(_args, ctx) {
      const ui = await readUi(ctx, ['ui.mainWindow.getOpenView', 'ui.rightSidebar.getWindows']);
      return { main: ui.first, sidebar: ui.second, ...(ui.note ? { hiddenNote: ui.note } : {}) };
    },
  }),
  defineTool({
    name: 'get_selection',
    title: 'Get selection',
    description: 'The block the user is editing in Roam Desktop and the blocks they multi-selected.',
    toolset: 'ui',
    feature: 'desktop UI access',
    actions: ['ui.getFocusedBlock', 'ui.multiselect.getSelected', 'data.q'],
    scope: 'graph',
    annotations: uiRead,
    inputSchema: {},
    async handler(_args, ctx) {
      const ui = await readUi(ctx, ['ui.getFocusedBlock', 'ui.multiselect.getSelected']);
      return { focused: ui.first, multiSelected: ui.second, ...(ui.note ? { hiddenNote: ui.note } : {}) };
    },
  }),
  defineTool({
    name: 'open_main_window',
    title: 'Open in main window',
    description:
      "Shows a page or block in Roam Desktop's main window (changes the user's view, not the graph).",
    toolset: 'ui',
    feature: 'desktop UI access',
    actions: ['ui.mainWindow.openBlock', 'ui.mainWindow.openPage', 'data.q'],
    scope: 'graph',
    effects: 'ui',
    annotations: { ...uiOpen, idempotentHint: true },
    inputSchema: {
      uid: z.string().min(1).optional(),
      title: z.string().min(1).optional(),
    },
    async handler(args, ctx) {
      if (args.uid === undefined && args.title === undefined) {
        throw new ToolError(
          'INVALID_PARAMS',
          'open_main_window needs `uid` (a page or block) or `title` (a page).',
          {
            field: 'uid',
          },
        );
      }
      const [action, target] =
        args.uid !== undefined
          ? ['ui.mainWindow.openBlock', { block: { uid: args.uid } }]
          : ['ui.mainWindow.openPage', { page: { title: args.title } }];
      await openTarget(ctx, args.uid, args.title, () => callFeature(ctx, action, [target]));
      return {
        opened: 'main window',
        ...(args.uid !== undefined ? { uid: args.uid } : { title: args.title }),
      };
    },
  }),
  defineTool({
    name: 'open_sidebar',
    title: 'Open in sidebar',
    description: "Opens a page or block in Roam Desktop's right sidebar (a new pane each call).",
    toolset: 'ui',
    feature: 'desktop UI access',
    actions: ['ui.rightSidebar.addWindow', 'data.q'],
    scope: 'graph',
    effects: 'ui',
    annotations: { ...uiOpen, idempotentHint: false },
    inputSchema: {
      uid: z.string().min(1),
      type: z
        .enum(['outline', 'block', 'mentions'])
        .default('outline')
        .describe('mentions: its linked references'),
    },
    async handler(args, ctx) {
      await openTarget(ctx, args.uid, undefined, () =>
        callFeature(ctx, 'ui.rightSidebar.addWindow', [
          { window: { type: args.type, 'block-uid': args.uid } },
        ]),
      );
      return { opened: 'sidebar', uid: args.uid, type: args.type };
    },
  }),
];
