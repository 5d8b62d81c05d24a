/**
 * Extracts what a block string references, the way Roam derives `:block/refs`:
 * `[[Page]]` (nested ones count both outer and inner), `#tag`, `#[[tag]]`, `attr::` and `((uid))`.
 */
export interface ParsedRefs {
  pageTitles: string[];
  blockUids: string[];
}

// Dots may appear inside a tag (`#.rm-hide`), not at its end (`#done.`).
export const TAG = /(?:^|[^\w\]#])#((?:[\p{L}\p{N}_\-/]|\.(?=[\p{L}\p{N}_\-/]))+)/gu;
const ATTRIBUTE = /^([^\s:[\]`][^:[\]`\n]*?)::/;
const BLOCK_REF = /\(\(([A-Za-z0-9_-]+)\)\)/g;

/** Every `[[...]]` span, outer and inner, by matching brackets. */
function bracketTitles(text: string): string[] {
  const titles: string[] = [];
  const open: number[] = [];
  for (let i = 0; i < text.length - 1; i++) {
    if (text[i] === '[' && text[i + 1] === '[') {
      open.push(i + 2);
      i++;
    } else if (text[i] === ']' && text[i + 1] === ']' && open.length > 0) {
      const start = open.pop() as number;
      const title = text.slice(start, i).trim();
      if (title) titles.push(title);
      i++;
    }
  }
  return titles;
}

export function parseRefs(text: string): ParsedRefs {
  const titles = bracketTitles(text);
  for (const match of text.matchAll(TAG)) if (match[1]) titles.push(match[1]);
  const attribute = ATTRIBUTE.exec(text);
  if (attribute?.[1]) titles.push(attribute[1].trim());
  const blockUids = [...text.matchAll(BLOCK_REF)].map((m) => m[1] as string);
  return { pageTitles: [...new Set(titles)], blockUids: [...new Set(blockUids)] };
}
