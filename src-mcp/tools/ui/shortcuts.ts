/**
 * The left sidebar's shortcuts (data.page.addShortcut / removeShortcut), graph data reported as select_graph's
 * starred pages: add_shortcut and remove_shortcut, named as the official server's. Roam takes
 * positional args here (`[uid, index?]`), not an object.
 */
import * as z from 'zod';
import { withMissingCheck } from '../../contract/not-found.ts';
import { defineTool, type ToolContext, type ToolDefinition } from '../../contract/tool-definition.ts';
import { callFeature } from '../../contract/roam-feature.ts';
import { takesNothing } from '../../gate/plan-readers.ts';

/**
 * No content goes with a shortcut (the page stays), and the undo puts the list back as it was:
 * not a question for the person (asking about it would teach them to say yes without reading).
 */
const ONLY_THE_SIDEBAR = takesNothing("only the sidebar's shortcut list changes, which the undo puts back");

const uid = z.string().min(1);

function onPage(ctx: ToolContext, pageUid: string, action: string, args: unknown[]) {
  return withMissingCheck(ctx, [{ what: `Page uid '${pageUid}'`, ref: { uid: pageUid } }], () =>
    callFeature(ctx, action, args),
  );
}

export const shortcutTools: ToolDefinition[] = [
  defineTool({
    name: 'add_shortcut',
    title: 'Add shortcut',
    description:
      "Adds a page to the left sidebar's shortcuts, at `index` (0-based; moves it if already there) or at the end.",
    toolset: 'ui',
    feature: 'sidebar shortcuts',
    actions: [
      { action: 'data.page.addShortcut', needs: 'Roam Desktop with Local API 1.1.3 or later' },
      'data.q',
    ],
    scope: 'graph',
    writes: 'edit',
    takes: ONLY_THE_SIDEBAR,
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, index: z.number().int().min(0).optional() },
    async handler(args, ctx) {
      const positional = args.index === undefined ? [args.uid] : [args.uid, args.index];
      await onPage(ctx, args.uid, 'data.page.addShortcut', positional);
      return { success: true, uid: args.uid, ...(args.index === undefined ? {} : { index: args.index }) };
    },
  }),
  defineTool({
    name: 'remove_shortcut',
    title: 'Remove shortcut',
    description: "Removes a page from the left sidebar's shortcuts (the page stays).",
    toolset: 'ui',
    feature: 'sidebar shortcuts',
    actions: [
      { action: 'data.page.removeShortcut', needs: 'Roam Desktop with Local API 1.1.3 or later' },
      'data.q',
    ],
    scope: 'graph',
    writes: 'edit',
    takes: ONLY_THE_SIDEBAR,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid },
    async handler(args, ctx) {
      await onPage(ctx, args.uid, 'data.page.removeShortcut', [args.uid]);
      return { success: true, uid: args.uid };
    },
  }),
];
