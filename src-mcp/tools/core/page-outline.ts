/**
 * update_page_markdown's input (docs/mcp.md, "Rewriting a page"): a nested `- ` outline, read into
 * blocks in the form Roam stores them, so that Roam's own normalisation of markdown is not a change.
 * get_page's answer may be pasted back as it is: `<roam uid="…"/>` tags name the block a line was
 * (a hint for keeping its uid) and `((uid))<ref>…</ref>` previews are dropped, as Roam's write path does.
 */

export interface OutlineBlock {
  /** The text as Roam stores it (headings apart, italics as `__x__`). */
  string: string;
  /** 1–3; absent for a plain block. */
  heading?: number;
  /** The uid of a `<roam uid="…"/>` tag on the line. */
  uidHint?: string;
  children: OutlineBlock[];
}

const ITEM = /^(\s*)(?:[-*+]|\d+\.)(?:\s+(.*))?$/;
const HEADING = /^(#{1,6})\s+(.*)$/s;
const ROAM_TAG = /\s*<roam\b([^>]*)\/>\s*$/;
const REF_PREVIEW = /\(\(([\w-]+)\)\)<ref>(?:[^<]|<(?!\/ref>))*<\/ref>/g;
const STRAY_TAG = /<roam\b[^>]*\/>/g;

const indentOf = (spaces: string) => spaces.replace(/\t/g, '  ').length;

/**
 * Roam's stored form of a text: italics `*x*` / `_x_` become `__x__` (the importer's rule), block
 * reference previews and stray `<roam/>` tags are dropped. Also the form two texts are compared in.
 */
export function storedForm(text: string): string {
  return text
    .replace(REF_PREVIEW, '(($1))')
    .replace(STRAY_TAG, '')
    .replace(/(^|[^*])\*(?![*\s])([^*\n]+?)\*(?!\*)/g, '$1__$2__')
    .replace(/(^|[^_\w])_(?![_\s])([^_\n]+?)_(?![_\w])/g, '$1__$2__')
    .trim();
}

interface Open {
  level: number;
  block: OutlineBlock;
  /** The raw text so far (continuation lines joined with newlines). */
  raw: string;
  tag: string;
}

function finish(open: Open): void {
  const uid = /\buid="([^"]+)"/.exec(open.tag)?.[1];
  const tagHeading = Number(/\bheading="(\d)"/.exec(open.tag)?.[1] ?? 0);
  let text = open.raw;
  const heading = HEADING.exec(text);
  let level = tagHeading;
  if (heading) {
    text = heading[2] ?? '';
    level = Math.min((heading[1] ?? '#').length, 3);
  }
  open.block.string = storedForm(text);
  if (level > 0) open.block.heading = level;
  if (uid) open.block.uidHint = uid;
}

/** Splits `raw` at a trailing `<roam …/>` tag (get_page's), returning the text and the tag's attributes. */
function untag(raw: string): { text: string; tag: string } {
  const match = ROAM_TAG.exec(raw);
  return match ? { text: raw.slice(0, match.index), tag: match[1] ?? '' } : { text: raw, tag: '' };
}

/**
 * The outline a markdown text describes: `- ` (or `* `, `+ `, `1. `) items nest by indentation (two
 * spaces or a tab per level); a line that is not an item continues the block above it (a block of
 * several lines); a first line `# Title` before any item (get_page's title line) is skipped, and
 * other text before any item is a top-level block.
 */
export function parseOutline(markdown: string): OutlineBlock[] {
  const roots: OutlineBlock[] = [];
  const stack: Open[] = [];
  const opened: Open[] = [];
  let titleSeen = false;
  let last: Open | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const item = ITEM.exec(line);
    if (!item && line.trim() === '') continue;
    if (!item && !last && !titleSeen && /^#\s/.test(line)) {
      titleSeen = true; // get_page's title line
      continue;
    }
    if (!item && last) {
      const { text, tag } = untag(line.trim());
      last.raw += `\n${text}`;
      if (tag) last.tag = tag;
      continue;
    }
    // An item, or text before any item: a top-level block, as Roam's importer makes it.
    const level = item ? indentOf(item[1] ?? '') >> 1 : 0;
    const { text, tag } = untag(item ? (item[2] ?? '') : line.trim());
    const block: OutlineBlock = { string: '', children: [] };
    while (stack.length && (stack[stack.length - 1] as Open).level >= level) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.block.children : roots).push(block);
    last = { level, block, raw: text, tag };
    stack.push(last);
    opened.push(last);
  }
  for (const open of opened) finish(open);
  return roots;
}

/** The blocks of an outline in document order (pre-order). */
export function* eachBlock<T extends { children: T[] }>(
  blocks: readonly T[],
  parent?: T,
): Generator<{ block: T; parent: T | undefined }> {
  for (const block of blocks) {
    yield { block, parent };
    yield* eachBlock(block.children, block);
  }
}

/** The markdown `data.block.fromMarkdown` turns into exactly these blocks (single-line texts only). */
export function outlineMarkdown(blocks: readonly OutlineBlock[], level = 0): string {
  return blocks
    .map((block) => {
      const head = block.heading ? `${'#'.repeat(block.heading)} ` : '';
      const line = `${'  '.repeat(level)}- ${head}${block.string}`;
      return block.children.length ? `${line}\n${outlineMarkdown(block.children, level + 1)}` : line;
    })
    .join('\n');
}
