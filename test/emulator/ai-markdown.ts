/**
 * Roam's "AI Markdown Format" (the data.ai.* answers): `# Title <roam uid="x" refs="N"/>`, nested `- text <roam uid="y"/>`
 * with two-space indentation, block refs as `[text](((uid)))`, page refs and `^^highlights^^` kept.
 */
import { isHidden } from './hidden-blocks.ts';
import type { RoamGraph } from './roam-graph.ts';

const BLOCK_REF = /\(\(([A-Za-z0-9_-]+)\)\)/g;

/** `<roam uid="x"/>`, with `refs="N"` only when something references the entity. */
export function roamTag(graph: RoamGraph, eid: number): string {
  const uid = graph.attr<string>(eid, ':block/uid') ?? '';
  const refs = graph.referrers(eid).length;
  return refs > 0 ? `<roam uid="${uid}" refs="${refs}"/>` : `<roam uid="${uid}"/>`;
}

/**
 * Block references become `[referenced text](((uid)))`, or on newer builds (`refPreviews:
 * 'ref-tag'`) `((uid))<ref>preview</ref>` with `</ref>` and backticks escaped and nested references
 * without their uid; unknown uids stay as written.
 */
export function renderInline(graph: RoamGraph, text: string): string {
  return text.replace(BLOCK_REF, (whole, uid: string) => {
    const label = referencedText(graph, uid);
    if (label === undefined) return whole;
    if (graph.refPreviews === 'alias') return `[${label}](((${uid})))`;
    const nested = label.replace(
      BLOCK_REF,
      (inner, innerUid: string) => referencedText(graph, innerUid) ?? inner,
    );
    return `((${uid}))<ref>${nested.replace(/<\/ref>/g, '<\\/ref>').replace(/`/g, '\\`')}</ref>`;
  });
}

function referencedText(graph: RoamGraph, uid: string): string | undefined {
  const target = graph.eidByUid(uid);
  if (target === undefined) return undefined;
  return graph.attr<string>(target, ':block/string') ?? graph.attr<string>(target, ':node/title') ?? uid;
}

/**
 * A block and `maxDepth` levels of its children (undefined/null = the whole subtree) as a
 * markdown list item at `level` (two spaces per level).
 */
export function blockMarkdown(graph: RoamGraph, eid: number, maxDepth?: number | null, level = 0): string {
  const indent = '  '.repeat(level);
  const heading = graph.attr<number>(eid, ':block/heading');
  const text = renderInline(graph, graph.attr<string>(eid, ':block/string') ?? '');
  const body = (heading ? `${'#'.repeat(heading)} ` : '') + text.replace(/\n/g, `\n${indent}  `);
  const lines = [`${indent}- ${body} ${roamTag(graph, eid)}`];
  if (maxDepth === undefined || maxDepth === null || maxDepth > 0) {
    const deeper = maxDepth === undefined || maxDepth === null ? maxDepth : maxDepth - 1;
    for (const child of visibleChildren(graph, eid))
      lines.push(blockMarkdown(graph, child, deeper, level + 1));
  }
  return lines.join('\n');
}

/** A page: title line, blank line, its blocks down to `maxDepth` levels (1 = top-level blocks only). */
export function pageMarkdown(graph: RoamGraph, eid: number, maxDepth?: number | null): string {
  const title = graph.attr<string>(eid, ':node/title') ?? '';
  const head = `# ${title} ${roamTag(graph, eid)}`;
  if (maxDepth === 0) return head;
  const deeper = maxDepth === undefined || maxDepth === null ? maxDepth : maxDepth - 1;
  const blocks = visibleChildren(graph, eid).map((child) => blockMarkdown(graph, child, deeper));
  return blocks.length ? `${head}\n\n${blocks.join('\n')}` : head;
}

/** Children the `data.ai.*` reads show: hidden subtrees (hidden-blocks.ts) are left out. */
function visibleChildren(graph: RoamGraph, eid: number): number[] {
  return graph.children(eid).filter((child) => !isHidden(graph, child));
}

/** Breadcrumb of a block: "Page Title > Parent Block > ..." (the block itself excluded). */
export function blockPath(graph: RoamGraph, eid: number): string {
  return graph
    .ancestors(eid)
    .map(
      (ancestor) =>
        graph.attr<string>(ancestor, ':node/title') ?? graph.attr<string>(ancestor, ':block/string') ?? '',
    )
    .join(' > ');
}
