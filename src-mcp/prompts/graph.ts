/**
 * /graph: the link graph around a page (or the best connected part of the graph), from
 * get_link_graph, written out readably: pages by distance, then each page's links among them.
 */
import * as z from 'zod';
import { pageTitles } from './completions.ts';
import { pageArgument, resolvePage } from './page-argument.ts';
import { definePrompt } from './prompt-definition.ts';
import { link, userText } from './prompt-text.ts';

/** Pages shown: get_link_graph keeps its answer within LIMITS.primary whatever this is. */
const NODES = 40;

interface LinkGraph {
  center: { uid: string; title: string } | null;
  nodes: Array<{ uid: string; title: string; degree: number; depth?: number }>;
  edges: Array<[string, string, number]>;
  totalNodes: number;
  totalEdges: number;
  truncated: boolean;
}

export const graphPrompt = definePrompt({
  name: 'graph',
  title: 'Link graph around a page',
  description: 'The pages linked around a page (or the best connected ones), and how they link.',
  tools: ['get_link_graph'],
  arguments: {
    page: pageArgument.optional().describe('Page title or uid (default: the best connected pages)'),
    depth: z.coerce.number().int().min(0).max(3).default(1).describe('Links to follow, 0-3 (default 1)'),
  },
  complete: { page: pageTitles },
  async build(args, ctx) {
    const center = args.page === undefined ? undefined : await resolvePage(ctx.roam, args.page);
    const graph = await ctx.tool<LinkGraph>('get_link_graph', {
      ...(center ? { center: center.title, depth: args.depth } : {}),
      limit: NODES,
    });
    const around = center
      ? `around ${link(center.title)} (links followed ${args.depth} deep, either direction)`
      : '(its best connected pages)';
    const head =
      `Here is the link graph of my Roam graph "${ctx.graph.nickname}" ${around}. Describe its ` +
      'structure: clusters, hubs, bridges between groups, and what it says about how these ' +
      'pages relate.';
    return {
      description: `Link graph ${center ? `around ${link(center.title)}` : 'of the best connected pages'} in ${ctx.graph.nickname}`,
      messages: [userText(`${head}\n\n${renderGraph(graph)}`)],
    };
  },
});

/** Pages grouped by distance from the center, then every shown link grouped by its source. */
export function renderGraph(graph: LinkGraph): string {
  const titles = new Map(graph.nodes.map((node) => [node.uid, link(node.title)]));
  const rings = new Map<number, string[]>();
  for (const node of graph.nodes) {
    const ring = rings.get(node.depth ?? -1) ?? [];
    ring.push(`${link(node.title)} (${node.degree})`);
    rings.set(node.depth ?? -1, ring);
  }
  const pages = [...rings].map(([depth, list]) =>
    depth < 0 ? `- ${list.join(', ')}` : `- ${depth === 0 ? 'center' : `${depth} away`}: ${list.join(', ')}`,
  );
  const bySource = new Map<string, string[]>();
  for (const [from, to, references] of graph.edges) {
    const targets = bySource.get(from) ?? [];
    targets.push(`${titles.get(to)}${references > 1 ? ` ×${references}` : ''}`);
    bySource.set(from, targets);
  }
  const links = [...bySource].map(([from, targets]) => `- ${titles.get(from)} → ${targets.join(', ')}`);
  const lines = [
    `Pages (${graph.nodes.length} of ${graph.totalNodes}; (n): how many pages each links with):`,
    ...pages,
    '',
    `Links (${graph.edges.length} of ${graph.totalEdges} among these pages; A → B: a block on A references B, ×n: n blocks):`,
    ...(links.length ? links : ['- none']),
  ];
  if (graph.truncated)
    lines.push(
      '',
      `Not everything fits: get_link_graph with a higher limit (up to 100) or get_neighbors shows more.`,
    );
  return lines.join('\n');
}
