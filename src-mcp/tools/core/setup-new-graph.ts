/**
 * setup_new_graph, named and shaped like the official server's: without arguments, the graphs
 * Roam Desktop has (marking those connected); with `graph` and `nickname`, a token request the
 * user approves in Roam Desktop, and the graph is kept and usable at once (../../roam/graph-setup.ts).
 */
import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { addGraph, listAvailable } from '../../roam/graph-setup.ts';

export const setupGraphTools = [
  defineTool({
    name: 'setup_new_graph',
    title: 'Set up a new graph',
    description:
      "No arguments: lists Roam Desktop's graphs. With graph and nickname (ask the user what to call it): requests access, which the user approves in Roam Desktop, and saves the graph.",
    toolset: 'core',
    feature: 'graph setup',
    actions: [],
    scope: 'session',
    // Opens a dialog in Roam Desktop and may save a graph: not read-only, not graph data.
    effects: 'ui',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      graph: z.string().trim().min(1).optional().describe("Roam's graph name"),
      nickname: z.string().trim().min(1).optional(),
    },
    async handler(args, scope) {
      if (args.graph === undefined && args.nickname === undefined) return listAvailable(scope);
      if (args.graph === undefined || args.nickname === undefined) {
        throw new ToolError(
          'INVALID_PARAMS',
          'setup_new_graph needs both `graph` (from setup_new_graph without arguments) and `nickname` (ask the user), or neither to list the graphs.',
          { field: args.graph === undefined ? 'graph' : 'nickname' },
        );
      }
      return addGraph(scope, args.graph, args.nickname);
    },
  }),
];
