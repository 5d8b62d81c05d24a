/** The app's DOM building, with textContent only (never innerHTML: every text is from a graph). */
import { DIRECTION_CONTROLS } from '../../../src-shared/person-text.ts';

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

export function button(label: string, onClick: () => void, extra: Partial<HTMLButtonElement> = {}) {
  return element('button', { type: 'button', onclick: onClick, ...extra }, label);
}

/**
 * A text from a graph, isolated (`<bdi>`): a right-to-left mark or override in a title or block
 * never reorders what is drawn around it (issue 40).
 */
export function graphText(text: string): HTMLElement {
  return element('bdi', {}, text);
}

/**
 * A line of ours that quotes graph texts as 'text' (summaries, an undo's step lines): each quote
 * isolated, and no direction control left outside one (a quote that itself holds a `'` cannot
 * smuggle one past its end).
 */
export function quotedLine(line: string): Array<Node | string> {
  const parts: Array<Node | string> = [];
  let last = 0;
  for (const match of line.matchAll(/'[^'\n]*'/g)) {
    parts.push(line.slice(last, match.index).replace(DIRECTION_CONTROLS, ''));
    parts.push(graphText(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(line.slice(last).replace(DIRECTION_CONTROLS, ''));
  return parts.filter((p) => p !== '');
}
