/** The app's DOM building, with textContent only (never innerHTML: every text is from a graph). */

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
