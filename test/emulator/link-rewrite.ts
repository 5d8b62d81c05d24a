/**
 * The text rewrites Roam makes in other blocks when a page is renamed or deleted or a block is
 * deleted: pure string functions over a block string or a
 * page title.
 */
import { TAG } from './ref-parser.ts';

const BARE_TAG = /^(?:[\p{L}\p{N}_\-/]|\.(?=[\p{L}\p{N}_\-/]))+$/u;
const BLOCK_REF = /\(\(([A-Za-z0-9_-]+)\)\)/g;

/** Replaces each `#tag` whose tag is exactly `title` by `replacement` (the prefix character stays). */
function mapTag(text: string, title: string, replacement: string): string {
  return text.replace(TAG, (whole: string, tag: string) =>
    tag === title ? whole.slice(0, whole.length - tag.length - 1) + replacement : whole,
  );
}

/** The attribute `title::` at the start of a block, renamed. */
function mapAttribute(text: string, title: string, replacement: string): string {
  return text.startsWith(`${title}::`) ? replacement + text.slice(title.length) : text;
}

/**
 * A rename of page `from` to `to`: `[[from]]` (also nested in another link and in `#[[from]]`)
 * becomes `[[to]]`, `#from` becomes `#to` (or `#[[to]]` when `to` cannot be a bare tag), and the
 * attribute `from::` becomes `to::`.
 */
export function renameLinks(text: string, from: string, to: string): string {
  let out = text.split(`[[${from}]]`).join(`[[${to}]]`);
  out = mapTag(out, from, BARE_TAG.test(to) ? `#${to}` : `#[[${to}]]`);
  return mapAttribute(out, from, to);
}

/**
 * A deleted page's links become its plain title: `#[[title]]`, `[[title]]` and `#title` →
 * `title`. An attribute `title::` is left as it is (its text is what makes it an attribute).
 */
export function delinkPage(text: string, title: string): string {
  const out = text.split(`#[[${title}]]`).join(title).split(`[[${title}]]`).join(title);
  return mapTag(out, title, title);
}

/** Every `((uid))` of a uid in `texts` replaced by that text. */
export function inlineBlockRefs(text: string, texts: ReadonlyMap<string, string>): string {
  return text.replace(BLOCK_REF, (whole: string, uid: string) => texts.get(uid) ?? whole);
}

/**
 * The text each of `raw`'s blocks stands for once all of them are gone: its string, with
 * references to the others (also gone) replaced by their text in turn; a cycle stops at the ref.
 */
export function expandedTexts(raw: ReadonlyMap<string, string>): Map<string, string> {
  const expand = (uid: string, seen: ReadonlySet<string>): string =>
    (raw.get(uid) as string).replace(BLOCK_REF, (whole: string, inner: string) =>
      raw.has(inner) && !seen.has(inner) ? expand(inner, new Set([...seen, inner])) : whole,
    );
  return new Map([...raw.keys()].map((uid) => [uid, expand(uid, new Set([uid]))]));
}
