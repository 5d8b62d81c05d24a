/**
 * get_graph_guidelines: the official server's name for orientation. The same work and ticket as
 * select_graph (./graphs.ts), with `graph` optional as the official tool has it, so prompts and
 * skills written for the official server work unchanged.
 */
import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { orient, orientOutput } from './graphs.ts';

export const graphGuidelinesTools = [
  defineTool({
    name: 'get_graph_guidelines',
    title: 'Get graph guidelines',
    description:
      "Same as select_graph: the graph's agent guidelines (follow them) and orientation, once per graph before the first write.",
    toolset: 'core',
    feature: 'graph guidelines',
    actions: ['data.ai.getGraphGuidelines'],
    scope: 'session',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      graph: z.string().optional(),
    },
    outputSchema: orientOutput,
    handler: (args, scope) => scope.gateway.session.withGraph(args.graph, (graph) => orient(scope, graph)),
  }),
];
