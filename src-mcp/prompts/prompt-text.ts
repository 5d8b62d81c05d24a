/** Building prompt messages: user text, embedded resources, and lists cut to the prompt budget. */
import type { PromptMessage } from '@modelcontextprotocol/server';
import { LIMITS } from '../contract/limits.ts';

/**
 * Characters of data one prompt may embed: two primary results. A prompt is loaded because the
 * user asked for it, once per command, so it may carry more than one tool answer; every list in
 * it is still cut here and says how to get the rest.
 */
export const PROMPT_BUDGET = 2 * LIMITS.primary;

export function userText(text: string): PromptMessage {
  return { role: 'user', content: { type: 'text', text } };
}

export function userResource(uri: string, mimeType: string, text: string): PromptMessage {
  return { role: 'user', content: { type: 'resource', resource: { uri, mimeType, text } } };
}

/** `[[Title]]`, as Roam writes a page link. */
export function link(title: string): string {
  return `[[${title}]]`;
}

/** "1 block" / "3 blocks". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * Rendered items, one after another, while the text stays within `budget` characters; `shown` is
 * how many made it (at least one, cut by its own renderer's limits).
 */
export function fitList<T>(
  items: readonly T[],
  render: (item: T, index: number) => string,
  budget: number,
): { text: string; shown: number } {
  const parts: string[] = [];
  let size = 0;
  for (const [index, item] of items.entries()) {
    const part = render(item, index);
    if (parts.length > 0 && size + part.length + 1 > budget) break;
    parts.push(part);
    size += part.length + 1;
  }
  return { text: parts.join('\n'), shown: parts.length };
}

/** Indents every line of a block of markdown (items nested under a list entry). */
export function indent(text: string, by = '   '): string {
  return text
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');
}
