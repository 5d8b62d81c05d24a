/**
 * Roam's hiding rule (docs/navigation.md "Hidden blocks"): a block that references `.rm-hide` or
 * `.rm-private` (as `#.rm-hide`, `[[.rm-hide]]` or `#[[.rm-hide]]`) is hidden from AI together
 * with everything nested under it. Roam applies it to its `data.ai.*` reads only; everything we
 * build from raw `data.q` (the link index, previews, templates, Datalog answers) applies it here.
 */
/** What reads the hidden blocks: a tool's context (its Local API calls), named structurally. */
interface RoamCaller {
  call<T>(action: string, args?: unknown[]): Promise<T>;
}

export const HIDING_TAGS = ['.rm-hide', '.rm-private'] as const;

/** What replaces a hidden block's text or uid in a Datalog answer. */
export const HIDDEN_MARK = '[hidden by #.rm-hide]';

/** Binds ?b to every hidden block: the tagged blocks (?r) and their descendants (`:block/parents`). */
export const HIDDEN_CLAUSES =
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

export async function fetchHiddenBlocks(ctx: RoamCaller): Promise<HiddenBlockRow[]> {
  return (await ctx.call<HiddenBlockRow[] | null>('data.q', [HIDDEN_BLOCKS_QUERY, [...HIDING_TAGS]])) ?? [];
}

export async function fetchHiddenContent(ctx: RoamCaller): Promise<HiddenContent> {
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

/**
 * The uids among the given ones that are hidden from AI now (tagged themselves or nested under a
 * tagged block): one `data.q`, asked right before a write, so a tag added a moment ago counts.
 */
const HIDDEN_AMONG_QUERY = `[:find ?u :in $ [?u ...] [?tag ...] :where [?b :block/uid ?u] ${HIDDEN_CLAUSES}]`;

export async function hiddenAmong(ctx: RoamCaller, uids: readonly string[]): Promise<Set<string>> {
  const asked = [...new Set(uids)];
  if (asked.length === 0) return new Set();
  const rows =
    (await ctx.call<Array<[string]> | null>('data.q', [HIDDEN_AMONG_QUERY, asked, [...HIDING_TAGS]])) ?? [];
  return new Set(rows.map(([uid]) => String(uid)));
}

/** The uids among the given ones of the hiding tags' own pages (`.rm-hide`, `.rm-private`). */
const TAG_PAGES_AMONG_QUERY =
  '[:find ?u :in $ [?u ...] [?tag ...] :where [?p :block/uid ?u] [?p :node/title ?tag]]';

/**
 * Renaming or deleting a tag's page rewrites every reference to it (Roam de-links or renames them,
 * local-api-actions.md §5.3), so it would show every block the tag hides.
 */
export async function hidingTagPagesAmong(ctx: RoamCaller, uids: readonly string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const rows =
    (await ctx.call<Array<[string]> | null>('data.q', [
      TAG_PAGES_AMONG_QUERY,
      [...new Set(uids)],
      [...HIDING_TAGS],
    ])) ?? [];
  return new Set(rows.map(([uid]) => String(uid)));
}

/** A line of plain markdown that carries a hiding tag in any of its forms. */
const TAG_IN_TEXT = /(?:#|\[\[|#\[\[)\.rm-(?:hide|private)(?:\]\]|(?![\w-]))/;

export function carriesHidingTag(text: string): boolean {
  return TAG_IN_TEXT.test(text);
}

/** One block of a markdown outline: its `- ` line and continuation lines (or a line outside any block). */
interface OutlineBlock {
  indent: number;
  lines: string[];
  item: boolean;
  /** The `<roam uid="…"/>` that ends the block in `data.ai.*` markdown. */
  uid?: string;
}

const UID_TAG = /<roam uid="([^"]+)"/;
const indentOf = (line: string) => line.length - line.trimStart().length;
const isItem = (line: string) => /^- |^-$/.test(line.trimStart());

/**
 * Splits an outline into blocks. A block's text may span lines: in plain outlines (templates) a
 * new block starts at every `- ` line; in uid-tagged markdown it runs to its `<roam uid>` tag.
 */
function outlineBlocks(markdown: string, tagged: boolean): OutlineBlock[] {
  const blocks: OutlineBlock[] = [];
  let open: OutlineBlock | undefined;
  for (const line of markdown.split('\n')) {
    if (isItem(line) && (!tagged || !open)) {
      open = { indent: indentOf(line), lines: [line], item: true };
      blocks.push(open);
    } else if (open) open.lines.push(line);
    else blocks.push({ indent: indentOf(line), lines: [line], item: false });
    const uid = UID_TAG.exec(line)?.[1];
    if (tagged && open && uid !== undefined) {
      open.uid = uid;
      open = undefined;
    }
  }
  return blocks;
}

/** A block's text without the list marker, continuation lines as written and de-indented. */
function blockTexts(block: OutlineBlock): string[] {
  const [first = '', ...rest] = block.lines;
  const head = first.trimStart().replace(/^- ?/, '');
  const cut = block.indent + 2;
  const dedented = rest.map((line) => (indentOf(line) >= cut ? line.slice(cut) : line.trimStart()));
  return [[head, ...rest].join('\n'), [head, ...dedented].join('\n')];
}

/**
 * Drops hidden blocks, per block and never per line: a block goes whole (every line of its
 * text) when any of its lines carries a hiding tag, its uid is a hidden block's, or its text is a
 * hidden block's; with it go the blocks nested under it.
 */
function withoutHidden(
  markdown: string,
  tagged: boolean,
  hidden: { uids?: ReadonlySet<string>; strings?: ReadonlySet<string> },
): string {
  const kept: string[] = [];
  let hiddenIndent = -1;
  for (const block of outlineBlocks(markdown, tagged)) {
    if (block.item && hiddenIndent >= 0 && block.indent > hiddenIndent) continue;
    if (block.item) hiddenIndent = -1;
    const isHidden =
      block.lines.some(carriesHidingTag) ||
      (block.uid !== undefined && hidden.uids?.has(block.uid) === true) ||
      (block.item && blockTexts(block).some((text) => hidden.strings?.has(text) === true));
    if (!isHidden) kept.push(...block.lines);
    else if (block.item) hiddenIndent = block.indent;
  }
  return kept.join('\n');
}

/** Drops hidden blocks from a plain markdown outline (a template preview has no uids). */
export function withoutHiddenLines(outline: string, hiddenStrings: ReadonlySet<string>): string {
  return withoutHidden(outline, false, { strings: hiddenStrings });
}

/** Drops hidden blocks from `data.ai.*`-style markdown (each block ends with its `<roam uid>`). */
export function withoutHiddenTaggedBlocks(markdown: string, hiddenUids: ReadonlySet<string>): string {
  return withoutHidden(markdown, true, { uids: hiddenUids });
}

/**
 * The hiding step of the link index build: given the hidden blocks, the build drops the
 * references they make and leaves them out of their page's block count, so the index need not
 * know why.
 */
/** Eids of blocks hidden from AI: they give no links, tags, counts or previews. */
export class HiddenBlocks {
  private constructor(
    /** Sorted, distinct. */
    private readonly eids: Int32Array,
    /** Page eid → how many of its blocks are hidden. */
    readonly perPage: ReadonlyMap<number, number>,
  ) {}

  static from(rows: Iterable<Readonly<HiddenBlockRow>>): HiddenBlocks {
    const pageOf = new Map<number, number>();
    for (const [block, page] of rows) pageOf.set(block, page);
    const eids = Int32Array.from(pageOf.keys()).sort();
    const perPage = new Map<number, number>();
    for (const page of pageOf.values()) perPage.set(page, (perPage.get(page) ?? 0) + 1);
    return new HiddenBlocks(eids, perPage);
  }

  static readonly none = HiddenBlocks.from([]);

  /** From the columns `columns()` gave (index-codec.ts): eids sorted, `[page, hidden count]` pairs. */
  static restore(eids: Int32Array, perPage: Int32Array): HiddenBlocks {
    const counts = new Map<number, number>();
    for (let i = 0; i < perPage.length; i += 2) counts.set(perPage[i]!, perPage[i + 1]!);
    return new HiddenBlocks(eids, counts);
  }

  columns(): { eids: Int32Array; perPage: Int32Array } {
    return { eids: this.eids, perPage: Int32Array.from([...this.perPage].flat()) };
  }

  get size(): number {
    return this.eids.length;
  }

  has(eid: number): boolean {
    let lo = 0;
    let hi = this.eids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.eids[mid]!;
      if (at === eid) return true;
      if (at < eid) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/**
 * What the preview of a hidden block reads as. It carries no hiding tag: an agent writing it back
 * hides nothing, and Roam's write path drops a `<ref>` preview anyway.
 */
export const HIDDEN_PREVIEW = 'hidden from AI';

/**
 * The referenced uids among `?uid` whose preview would show hidden text: the hidden blocks, and
 * the blocks that refer to one (a preview renders its nested references without their uid).
 */
const PREVIEWS_TO_HIDE_QUERY =
  `[:find ?uid ?s :in $ [?uid ...] [?tag ...] :where ${HIDDEN_CLAUSES}` +
  ' (or-join [?x ?b] [(identity ?b) ?x] [?x :block/refs ?b])' +
  ' [?x :block/uid ?uid] [(get-else $ ?x :block/string "") ?s]]';

const BLOCK_REF = /\(\(([\w-]+)\)\)/g;
/** A preview as newer builds write it (local-api-actions.md §13): `</ref>` inside is escaped. */
const REF_PREVIEW = /\(\(([\w-]+)\)\)<ref>(?:[^<]|<(?!\/ref>))*<\/ref>/g;
/** Where an older build's preview `[text](((uid)))` ends. */
const ALIAS_PREVIEW_END = /\]\(\(\(([\w-]+)\)\)\)/g;

const redactedPreview = (uid: string) => `((${uid}))<ref>${HIDDEN_PREVIEW}</ref>`;

/** Every string inside a JSON value, mapped (keys kept). */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  }
  return value;
}

function referencedUids(value: unknown): Set<string> {
  const uids = new Set<string>();
  mapStrings(value, (text) => {
    for (const [, uid] of text.matchAll(BLOCK_REF)) uids.add(uid!);
    return text;
  });
  return uids;
}

/** Where the `[` that opens the alias ending at `end` (its `]`) is: brackets balanced, or -1. */
function aliasStart(text: string, end: number): number {
  let depth = 0;
  for (let i = end - 1; i >= 0; i--) {
    if (text[i] === ']') depth++;
    else if (text[i] === '[') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** `text` with every preview of a uid in `hide` (uid → its raw text) redacted, in both formats. */
function withoutPreviews(text: string, hide: ReadonlyMap<string, string>): string {
  let out = text.replace(REF_PREVIEW, (whole, uid: string) => (hide.has(uid) ? redactedPreview(uid) : whole));
  for (const [uid, raw] of hide) {
    if (raw !== '') out = out.split(`[${raw}](((${uid})))`).join(redactedPreview(uid));
  }
  // An older build's preview, whose text is not the raw one: cut back to its balancing `[`, or to
  // the start of the line when the brackets do not balance (better too much than a leak).
  for (;;) {
    const match = [...out.matchAll(ALIAS_PREVIEW_END)].find(([, uid]) => hide.has(uid!));
    if (!match) return out;
    const end = match.index;
    const open = aliasStart(out, end);
    const start = open >= 0 ? open : out.lastIndexOf('\n', end) + 1;
    out = out.slice(0, start) + redactedPreview(match[1]!) + out.slice(end + match[0].length);
  }
}

/**
 * A `data.ai.*` answer with the preview of every block hidden from AI redacted: Roam leaves
 * hidden blocks out of its reads, but whether it filters a visible block's reference to one is not
 * documented, so every answer that carries a `((uid))` asks which of its uids are hidden (one
 * `data.q`; none when it carries no reference).
 */
export async function withoutHiddenPreviews(
  answer: unknown,
  query: (datalog: string, inputs: unknown[]) => Promise<unknown>,
): Promise<unknown> {
  const uids = referencedUids(answer);
  if (uids.size === 0) return answer;
  const rows = ((await query(PREVIEWS_TO_HIDE_QUERY, [[...uids], [...HIDING_TAGS]])) ?? []) as Array<
    [string, string]
  >;
  if (rows.length === 0) return answer;
  const hide = new Map(rows);
  return mapStrings(answer, (text) => (text.includes('((') ? withoutPreviews(text, hide) : text));
}

/**
 * A pull fragment reading the tags of every ancestor of the pulled block (`:block/parents`), for
 * `hiddenByAncestor`: what was hidden when the journal read it stays hidden from AI later.
 */
export const ANCESTOR_TAGS_PULL = '{:block/parents [{:block/refs [:node/title]}]}';

/** Whether a block pulled with ANCESTOR_TAGS_PULL is nested under a block carrying a hiding tag. */
export function hiddenByAncestor(pulled: Record<string, unknown>): boolean {
  const list = (v: unknown): Array<Record<string, unknown>> =>
    Array.isArray(v)
      ? (v as Array<Record<string, unknown>>)
      : v && typeof v === 'object'
        ? [v as Record<string, unknown>]
        : [];
  return list(pulled[':block/parents']).some((ancestor) =>
    list(ancestor[':block/refs']).some((ref) =>
      (HIDING_TAGS as readonly unknown[]).includes(ref[':node/title']),
    ),
  );
}
