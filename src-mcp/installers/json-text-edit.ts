/**
 * Sets or removes one property two levels deep (`servers.key`) in JSON/JSONC text by splicing
 * text, so nothing else moves: not other entries' formatting (jsonc-parser's own `modify`
 * reformats the neighbouring entry's line), not comments, not trailing commas. Removing what we
 * inserted gives back the original text exactly.
 */
// The package's UMD main can't be bundled by esbuild (its requires hide behind a factory).
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser/lib/esm/main.js';

interface Style {
  indentUnit: string;
  eol: string;
}

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)["/]/m.exec(text)?.[1];
  return { indentUnit: indent?.startsWith('\t') ? '\t' : (indent ?? '  '), eol };
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the line break ending the line at `offset` (or the text's end). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline < 0) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}

/** Offset just past the line break ending the line at `offset`. */
function nextLineStart(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

function leadingWhitespace(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/** The indentation before `offset` when only whitespace precedes it on its line. */
function ownLineIndent(text: string, offset: number): string | undefined {
  const before = text.slice(lineStart(text, offset), offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

function render(value: unknown, style: Style, baseIndent: string): string {
  return JSON.stringify(value, null, style.indentUnit)
    .split('\n')
    .join(style.eol + baseIndent);
}

function splice(text: string, start: number, end: number, insert = ''): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function rootOf(text: string): Node {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (root?.type !== 'object') throw new Error('json-text-edit: the text must hold an object');
  return root;
}

function insertProperty(text: string, object: Node, key: string, value: unknown): string {
  const style = styleOf(text);
  const close = object.offset + object.length - 1;
  const props = object.children ?? [];
  const compactFile = !text.trim().includes('\n');
  const singleLine = !text.slice(object.offset, close).includes('\n');
  const name = JSON.stringify(key);
  const last = props.at(-1);
  if (compactFile || (singleLine && last)) {
    const property = `${name}: ${JSON.stringify(value)}`;
    return last
      ? splice(text, last.offset + last.length, last.offset + last.length, `, ${property}`)
      : splice(text, close, close, property);
  }
  const objectIndent = leadingWhitespace(text, object.offset);
  if (!last) {
    // Keep anything inside the braces (a comment), then open a line for our property.
    let contentEnd = close;
    while (contentEnd > object.offset + 1 && /\s/.test(text[contentEnd - 1]!)) contentEnd--;
    const indent = objectIndent + style.indentUnit;
    const property = `${name}: ${render(value, style, indent)}`;
    return splice(text, contentEnd, close, `${style.eol}${indent}${property}${style.eol}${objectIndent}`);
  }
  const indent = ownLineIndent(text, last.offset) ?? objectIndent + style.indentUnit;
  const afterLast = last.offset + last.length;
  const separator = /^[ \t]*(,)?/.exec(text.slice(afterLast))!;
  const trailingComma = separator[1] !== undefined;
  let insertAt = afterLast + separator[0].length;
  // A comment ending the previous entry's line stays with that entry.
  const restOfLine = text.slice(insertAt, lineEnd(text, insertAt)).trim();
  if (/^\/\/|^\/\*.*\*\/$/.test(restOfLine)) insertAt = lineEnd(text, insertAt);
  const property = `${style.eol}${indent}${name}: ${render(value, style, indent)}${trailingComma ? ',' : ''}`;
  return (
    text.slice(0, afterLast) +
    (trailingComma ? '' : ',') +
    text.slice(afterLast, insertAt) +
    property +
    text.slice(insertAt)
  );
}

/** `text` with `object[outer][inner] = value`, creating `outer` when missing. */
export function setNestedProperty(text: string, outer: string, inner: string, value: unknown): string {
  const root = rootOf(text);
  const existing = findNodeAtLocation(root, [outer, inner]);
  if (existing) {
    const property = existing.parent!;
    const object = property.parent!;
    const singleLine = !text.slice(object.offset, object.offset + object.length).includes('\n');
    const rendered = singleLine
      ? JSON.stringify(value)
      : render(value, styleOf(text), leadingWhitespace(text, property.offset));
    return splice(text, existing.offset, existing.offset + existing.length, rendered);
  }
  const servers = findNodeAtLocation(root, [outer]);
  if (servers?.type === 'object') return insertProperty(text, servers, inner, value);
  return insertProperty(text, root, outer, { [inner]: value });
}

/** `text` without `object[outer][inner]`; `outer` stays, as `{}` when nothing else is left. */
export function removeNestedProperty(text: string, outer: string, inner: string): string {
  const valueNode = findNodeAtLocation(rootOf(text), [outer, inner]);
  if (!valueNode) return text;
  const property = valueNode.parent!;
  const object = property.parent!;
  const siblings = object.children!;
  const index = siblings.indexOf(property);
  const previous = siblings[index - 1];
  const start = property.offset;
  const end = property.offset + property.length;
  const ownComma = /^[ \t]*,/.exec(text.slice(end));
  const afterOwn = end + (ownComma?.[0].length ?? 0);
  const onOwnLines =
    ownLineIndent(text, start) !== undefined && text.slice(afterOwn, lineEnd(text, afterOwn)).trim() === '';

  let result: string;
  if (onOwnLines) {
    result = splice(text, lineStart(text, start), nextLineStart(text, afterOwn));
    if (!ownComma && previous) {
      // We were last: the comma that separated us from the previous entry must go too.
      const previousEnd = previous.offset + previous.length;
      const comma = /^[ \t]*,/.exec(result.slice(previousEnd));
      if (comma) result = splice(result, previousEnd + comma[0].length - 1, previousEnd + comma[0].length);
    }
  } else if (ownComma) {
    result = splice(text, start, afterOwn + (/^[ \t]*/.exec(text.slice(afterOwn))?.[0].length ?? 0));
  } else if (previous) {
    result = splice(text, previous.offset + previous.length, end);
  } else {
    result = splice(text, start, end);
  }
  // An object left with only whitespace inside closes up again: `{}`.
  const emptied = findNodeAtLocation(rootOf(result), [outer])!;
  const inside = result.slice(emptied.offset + 1, emptied.offset + emptied.length - 1);
  if (emptied.children?.length === 0 && inside.trim() === '') {
    result = splice(result, emptied.offset + 1, emptied.offset + emptied.length - 1);
  }
  return result;
}
