/**
 * The hiding rule (docs/navigation.md "Hidden blocks") for `data.ai.*`-style markdown Roam does
 * not filter for us (comments): a line whose `<roam uid>` is a hidden block goes, together with
 * every following line indented deeper (its subtree and continuation lines).
 */
import { carriesHidingTag } from '../hidden-blocks.ts';

const UID_TAG = /<roam uid="([^"]+)"/;

export function withoutHiddenBlocks(markdown: string, hiddenUids: ReadonlySet<string>): string {
  const kept: string[] = [];
  let hiddenIndent = -1;
  for (const line of markdown.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (hiddenIndent >= 0 && indent > hiddenIndent) continue;
    hiddenIndent = -1;
    const uid = UID_TAG.exec(line)?.[1];
    if ((uid !== undefined && hiddenUids.has(uid)) || carriesHidingTag(line)) hiddenIndent = indent;
    else kept.push(line);
  }
  return kept.join('\n');
}
