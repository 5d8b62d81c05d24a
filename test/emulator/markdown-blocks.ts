/** Parses markdown (as `data.block.fromMarkdown` receives it) into a tree of blocks. */
export interface ParsedBlock {
  string: string;
  heading?: 1 | 2 | 3;
  children: ParsedBlock[];
}

const LIST_ITEM = /^(\s*)(?:[-*+]|\d+\.)\s+(.*)$/;
const HEADING = /^(#{1,3})\s+(.*)$/;

function levelOf(indent: string): number {
  return indent.replace(/\t/g, '  ').length >> 1;
}

/** List items nest by indentation (two spaces or a tab per level); other lines are top-level blocks. */
export function parseMarkdownBlocks(markdown: string): ParsedBlock[] {
  const roots: ParsedBlock[] = [];
  const stack: Array<{ level: number; block: ParsedBlock }> = [];
  for (const line of markdown.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const item = LIST_ITEM.exec(line);
    const level = item ? levelOf(item[1] ?? '') : 0;
    let text = (item ? item[2] : line.trim()) ?? '';
    const block: ParsedBlock = { string: text, children: [] };
    const heading = HEADING.exec(text);
    if (heading) {
      text = heading[2] ?? '';
      block.string = text;
      block.heading = (heading[1] ?? '#').length as 1 | 2 | 3;
    }
    while (stack.length && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.block.children.push(block);
    else roots.push(block);
    stack.push({ level, block });
  }
  return roots;
}
