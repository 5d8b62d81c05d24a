/**
 * Roam's hiding rule (docs/navigation.md "Hidden blocks"): a block that references `.rm-hide` or
 * `.rm-private` (as `#.rm-hide`, `[[.rm-hide]]` or `#[[.rm-hide]]`) is hidden from AI together
 * with everything nested under it. Roam applies it to its `data.ai.*` reads only; everything we
 * build from raw `data.q` (the link index, previews, templates, Datalog answers) applies it here.
 */
import type { ToolContext } from './tool-definition.ts';

export const HIDING_TAGS = ['.rm-hide', '.rm-private'] as const;

/** What replaces a hidden block's text or uid in a Datalog answer. */
export const HIDDEN_MARK = '[hidden by #.rm-hide]';

/** Binds ?b to every hidden block: the tagged blocks (?r) and their descendants (`:block/parents`). */
const HIDDEN_CLAUSES =
  '[?t :node/title ?tag] [?r :block/refs ?t] (or-join [?b ?r] [(identity ?r) ?b] [?b :block/parents ?r])';

/** `[blockEid, pageEid]` of every hidden block: one round trip, aggregated inside Roam. */
export const HIDDEN_BLOCKS_QUERY = `[:find ?b ?p :in $ [?tag ...] :where ${HIDDEN_CLAUSES} [?b :block/page ?p]]`;

/** `[blockEid, uid, string]` of every hidden block, for redacting Datalog answers. */
export const HIDDEN_CONTENT_QUERY =
  `[:find ?b ?uid ?s :in $ [?tag ...] :where ${HIDDEN_CLAUSES}` +
  ' [?b :block/uid ?uid] [(get-else $ ?b :block/string "") ?s]]';

export type HiddenBlockRow = [number, number];

export interface HiddenContent {
  eids: ReadonlySet<number>;
  uids: ReadonlySet<string>;
  /** Non-empty texts of hidden blocks. */
  strings: ReadonlySet<string>;
}

export async function fetchHiddenBlocks(ctx: ToolContext): Promise<HiddenBlockRow[]> {
  return (await ctx.call<HiddenBlockRow[] | null>('data.q', [HIDDEN_BLOCKS_QUERY, [...HIDING_TAGS]])) ?? [];
}

export async function fetchHiddenContent(ctx: ToolContext): Promise<HiddenContent> {
  const rows =
    (await ctx.call<Array<[number, string, string]> | null>('data.q', [
      HIDDEN_CONTENT_QUERY,
      [...HIDING_TAGS],
    ])) ?? [];
  return {
    eids: new Set(rows.map(([eid]) => eid)),
    uids: new Set(rows.map(([, uid]) => uid)),
    strings: new Set(rows.map(([, , text]) => text).filter((text) => text !== '')),
  };
}

/** A line of plain markdown that carries a hiding tag in any of its forms. */
const TAG_IN_TEXT = /(?:#|\[\[|#\[\[)\.rm-(?:hide|private)(?:\]\]|(?![\w-]))/;

export function carriesHidingTag(text: string): boolean {
  return TAG_IN_TEXT.test(text);
}

/**
 * Drops hidden blocks from a plain markdown outline (a template preview has no uids): a line
 * carrying a hiding tag, or whose text is a hidden block's, goes with every following line
 * indented deeper (its subtree and the continuation lines of its text).
 */
export function withoutHiddenLines(outline: string, hiddenStrings: ReadonlySet<string>): string {
  const kept: string[] = [];
  let hiddenIndent = -1;
  for (const line of outline.split('\n')) {
    const text = line.trimStart();
    const indent = line.length - text.length;
    if (hiddenIndent >= 0 && (indent > hiddenIndent || !text.startsWith('- '))) continue;
    hiddenIndent = -1;
    if (carriesHidingTag(line) || hiddenStrings.has(text.replace(/^- /, ''))) hiddenIndent = indent;
    else kept.push(line);
  }
  return kept.join('\n');
}
