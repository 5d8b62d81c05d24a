/**
 * What Roam does to text, as far as taking a change back needs it: the markdown outline fromMarkdown makes, the text it stores for what we sent, the
 * pages a text links to, and how a delete rewrites the blocks that referred to what it deleted.
 */
import type { TreeNode } from './types.ts';

const LIST_ITEM = /^(\s*)(?:[-*+]|\d+\.)\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*)$/;

/** The outline `data.*.fromMarkdown` makes of markdown: nesting by indentation, # for headings. */
export function markdownTree(markdown: string): TreeNode[] {
  const roots: TreeNode[] = [];
  const stack: Array<{ level: number; node: TreeNode }> = [];
  for (const line of markdown.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const item = LIST_ITEM.exec(line);
    const level = item ? (item[1] ?? '').replace(/\t/g, '  ').length >> 1 : 0;
    const node: TreeNode = { string: (item ? item[2] : line.trim()) ?? '', children: [] };
    const heading = HEADING.exec(node.string);
    if (heading) {
      node.string = heading[2] ?? '';
      node.heading = Math.min((heading[1] ?? '#').length, 3);
    }
    while (stack.length && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.node.children.push(node);
    else roots.push(node);
    stack.push({ level, node });
  }
  return roots;
}

/**
 * A text as compared with what was written: Roam's importer writes italics as `__x__` and may
 * keep or drop a `1. ` marker, and its write path drops `<ref>` previews and stray `<roam/>` tags.
 */
export function canonicalText(text: string): string {
  return storedText(text)
    .replace(/^\d+\.\s+/, '')
    .replace(/(^|[^*])\*(?!\*)([^*\n]+?)\*(?!\*)/g, '$1__$2__')
    .replace(/(^|[^_\w])_(?!_)([^_\n]+?)_(?!_)/g, '$1__$2__')
    .trim();
}

/** The text Roam keeps for a string sent to a write (newer builds decode wire annotations). */
export function storedText(text: string): string {
  return text
    .replace(/\(\(([\w-]+)\)\)<ref>(?:[^<]|<(?!\/ref>))*<\/ref>/g, '(($1))')
    .replace(/<roam\b[^>]*\/>/g, '');
}

export function sameText(actual: string | undefined, written: string | undefined): boolean {
  if (actual === written) return true;
  if (actual === undefined || written === undefined) return false;
  return actual === storedText(written) || canonicalText(actual) === canonicalText(written);
}

const TAG = /(?:^|[^\w\]#])#((?:[\p{L}\p{N}_\-/]|\.(?=[\p{L}\p{N}_\-/]))+)/gu;
const ATTRIBUTE = /^([^\s:[\]`][^:[\]`\n]*?)::/;

/** Page titles a text links to: `[[...]]` (outer and inner), `#tag`, `#[[tag]]`, `attr::`. */
export function linkedTitles(text: string): string[] {
  const titles: string[] = [];
  const open: number[] = [];
  for (let i = 0; i < text.length - 1; i++) {
    if (text[i] === '[' && text[i + 1] === '[') {
      open.push(i + 2);
      i++;
    } else if (text[i] === ']' && text[i + 1] === ']' && open.length > 0) {
      const title = text.slice(open.pop() as number, i).trim();
      if (title) titles.push(title);
      i++;
    }
  }
  for (const match of text.matchAll(TAG)) if (match[1]) titles.push(match[1]);
  const attribute = ATTRIBUTE.exec(text);
  if (attribute?.[1]) titles.push(attribute[1].trim());
  return [...new Set(titles)];
}

/** Every title linked anywhere in a tree. */
export function treeTitles(tree: readonly TreeNode[]): string[] {
  return [...new Set(tree.flatMap((n) => [...linkedTitles(n.string), ...treeTitles(n.children)]))];
}

const BLOCK_REF = /\(\(([\w-]+)\)\)/g;

/**
 * What Roam leaves of a text after deleting these blocks: each `((uid))` becomes that block's
 * text, a reference inside that text to another deleted block in turn (a cycle stops there).
 */
export function withoutBlockRefs(text: string, deleted: ReadonlyMap<string, string>): string {
  const expand = (value: string, seen: ReadonlySet<string>): string =>
    value.replace(BLOCK_REF, (whole, uid: string) => {
      const inner = deleted.get(uid);
      return inner === undefined || seen.has(uid) ? whole : expand(inner, new Set([...seen, uid]));
    });
  return expand(text, new Set());
}

/** `#tag` occurrences whose tag is exactly `title`, mapped (the character before `#` stays). */
function mapTags(text: string, title: string, to: (title: string) => string): string {
  return text.replace(TAG, (whole: string, tag: string) =>
    tag === title ? whole.slice(0, whole.length - tag.length - 1) + to(tag) : whole,
  );
}

/** What Roam leaves after deleting page `title`: `[[T]]`, `#T`, `#[[T]]` become plain `T`. */
export function withoutPageLinks(text: string, title: string): string {
  const out = text.split(`#[[${title}]]`).join(title).split(`[[${title}]]`).join(title);
  return mapTags(out, title, (t) => t);
}

const BARE_TAG = /^(?:[\p{L}\p{N}_\-/]|\.(?=[\p{L}\p{N}_\-/]))+$/u;

/**
 * The links Roam rewrites when page `from` is renamed `to`: `[[from]]` (also nested, and in
 * `#[[from]]`) → `[[to]]`, `#from` → `#to` (or `#[[to]]` when `to` cannot be a bare tag),
 * `from::` → `to::`.
 */
export function renamedLinks(text: string, from: string, to: string): string {
  let out = text.split(`[[${from}]]`).join(`[[${to}]]`);
  out = mapTags(out, from, () => (BARE_TAG.test(to) ? `#${to}` : `#[[${to}]]`));
  return out.startsWith(`${from}::`) ? `${to}${out.slice(from.length)}` : out;
}

/**
 * A text with every link form of these titles (`[[T]]`, `#[[T]]`, `#T`, `T::`) made alike, and
 * any `#[[tag]]` that can be a bare tag written `#tag` (renames bring tags back in either form).
 */
export function withoutLinkForms(text: string, titles: readonly string[]): string {
  let out = text.replace(/#\[\[([^\]]+)\]\]/g, (whole, tag: string) =>
    BARE_TAG.test(tag) ? `#${tag}` : whole,
  );
  for (const title of titles) {
    out = out.split(`#[[${title}]]`).join('\u0000').split(`[[${title}]]`).join('\u0000');
    out = mapTags(out, title, () => '\u0000');
    if (out.startsWith(`${title}::`)) out = `\u0000${out.slice(title.length)}`;
  }
  return out;
}

/**
 * Whether two texts differ only in how they tag `title` (`#T` or `#[[T]]`): a rename and its
 * reversal may bring a `#T` back as `#[[T]]`.
 */
export function sameButTagForm(a: string, b: string, title: string): boolean {
  const bare = (text: string) => text.split(`#[[${title}]]`).join(`#${title}`);
  return a !== b && bare(a) === bare(b);
}

/** Whether `text` still refers to block `uid` or links page `title`. */
export function refersTo(text: string | undefined, target: { uid?: string; title?: string }): boolean {
  if (!text) return false;
  if (target.uid && text.includes(`((${target.uid}))`)) return true;
  return target.title !== undefined && linkedTitles(text).includes(target.title);
}
