/**
 * Where text is drawn, for the tests that a hidden right-to-left override never reverses what a
 * person reads: left edges of pieces of text, in reading order, grow.
 */

/**
 * Left edges, as drawn, of the first occurrence of each of `needles` in the text under `root`.
 * Runs in the page (pass it to `evaluate`): it uses nothing from outside.
 */
export function drawnLefts(root: Node, needles: string[]): number[] {
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  return needles.map((needle) => {
    for (const node of nodes) {
      const at = node.data.indexOf(needle);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      return range.getBoundingClientRect().left;
    }
    throw new Error(`'${needle}' not drawn`);
  });
}

export const increasing = (values: number[]) =>
  values.every((v, i) => i === 0 || v > (values[i - 1] as number));
