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
      "Returns the graph's agent guidelines (read and follow them) and orientation; same as select_graph. Once per graph per session, before the first write.",
    toolset: 'core',
    feature: 'graph guidelines',
    actions: ['data.ai.getGraphGuidelines'],
    scope: 'session',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      graph: z.string().optional().describe('Nickname or name; optional with one graph or a selection'),
    },
    outputSchema: orientOutput,
    handler: (args, scope) => scope.gateway.session.withGraph(args.graph, (graph) => orient(scope, graph)),
  }),
];
