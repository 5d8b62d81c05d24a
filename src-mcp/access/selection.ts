/**
 * A toolset selection that offers write tools but no way to read a graph's guidelines (e.g.
 * `--tools files`) can never write: every write needs a graph ticket (select_graph first). It says
 * so at startup (stderr) and in the write tools' refusal, instead of a ticket error the agent
 * cannot act on.
 */
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import type { ToolDefinition } from '../contract/tool-definition.ts';
import { ToolError } from '../contract/tool-errors.ts';

/** The toolset of the tool that gives graph tickets (`givesTickets` in its declaration). */
export function ticketToolset(tools: readonly ToolDefinition[]): ToolsetName | undefined {
  return tools.find((tool) => tool.givesTickets)?.toolset;
}

/** The refusal of write tool `toolName` under a selection that cannot write, if it cannot. */
export function writeSelectionProblem(
  toolName: string,
  toolsets: readonly ToolsetName[],
  set: ToolsetName,
): ToolError | undefined {
  if (toolsets.includes(set)) return undefined;
  return new ToolError(
    'TOOLSET_NOT_ENABLED',
    `${toolName} changes the graph, and every change needs select_graph first (to read the graph's guidelines), but select_graph is in the '${set}' toolset, which this roam-mcp does not offer (it offers: ${toolsets.join(', ')}). So this selection can only read. To allow changes, add ${set} to --tools in the MCP client's config (e.g. --tools ${[...toolsets, set].join(',')}), or to ROAM_MCP_TOOLS, or choose it for this client in Roam Companion > AI clients; then restart the MCP client.`,
    { toolset: set },
  );
}

/** The startup warning for a selection with write tools that can never write, if it is one. */
export function selectionWarning(
  toolsets: readonly ToolsetName[],
  tools: readonly ToolDefinition[],
): string | undefined {
  const set = ticketToolset(tools);
  if (!set || toolsets.includes(set)) return undefined;
  const writes = tools
    .filter((tool) => tool.writes && toolsets.includes(tool.toolset))
    .map((tool) => tool.name);
  if (writes.length === 0) return undefined;
  return `The selected toolsets (${toolsets.join(', ')}) offer tools that change the graph (${writes.join(', ')}) but not select_graph (toolset '${set}'), which every change needs first: this roam-mcp can only read. Add ${set} to --tools (e.g. --tools ${[...toolsets, set].join(',')}) to allow changes.`;
}
