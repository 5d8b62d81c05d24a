/**
 * Which tools this connection sees and may call: the one place toolsets, read-only mode,
 * read-only tokens and probed capabilities are decided. tools/list shows exactly the tools
 * `refusal` lets through, and tools/call answers the rest with why (src-mcp/server/tool-call.ts).
 */
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import { everyGraphReadOnlyRefusal, readOnlyFlagRefusal } from '../access/refusals.ts';
import { writeSelectionProblem } from '../access/selection.ts';
import { probedActions, type ToolDefinition } from '../contract/tool-definition.ts';
import { ToolError } from '../contract/tool-errors.ts';
import type { GraphGateway } from '../roam/graph-gateway.ts';

/** What decides visibility and refusals for this connection. */
export interface Visibility {
  gateway: GraphGateway;
  /** roam-mcp runs with --read-only. */
  readOnly: boolean;
  /** The selected toolsets (src-shared/toolsets.ts): tools outside them are hidden and refused. */
  toolsets: readonly ToolsetName[];
  /** Why the toolset selection (--tools, ROAM_MCP_TOOLS) is invalid: every call answers it. */
  toolsetsProblem?: string;
  /** The toolset of the tool that gives graph tickets, once the catalogue is loaded. */
  ticketToolset?: ToolsetName;
}

/**
 * Why `tool` cannot be called now, or undefined: outside the selected toolsets
 * (TOOLSET_NOT_ENABLED; a write without select_graph in the selection too), --read-only mode or
 * every graph read-only by the user's choice (ACCESS_LEVEL), every token read-only
 * (INSUFFICIENT_SCOPE), a probed Local API action not offered (UNKNOWN_TOOL).
 */
export function refusal(tool: ToolDefinition, state: Visibility): ToolError | undefined {
  if (!state.toolsets.includes(tool.toolset)) return notInToolsets(tool.name, tool.toolset, state.toolsets);
  if (tool.writes && state.ticketToolset) {
    const cannotWrite = writeSelectionProblem(tool.name, state.toolsets, state.ticketToolset);
    if (cannotWrite) return cannotWrite;
  }
  if (tool.writes && state.readOnly) return readOnlyFlagRefusal(tool.name);
  if (tool.writes && !state.gateway.session.anyGraphMayWrite()) {
    return everyGraphReadOnlyRefusal(tool.name, state.gateway.session);
  }
  if (probedActions(tool).some((action) => !state.gateway.offers(action))) return unknownTool(tool.name);
  return undefined;
}

/**
 * The tool a call of `name` (found as `tool`, if at all) may run, or the ToolError why not: an
 * invalid toolset selection answers every call (CONFIG_INVALID), an unknown name UNKNOWN_TOOL,
 * then `refusal`.
 */
export function callableTool(
  tool: ToolDefinition | undefined,
  name: string,
  state: Visibility,
): ToolDefinition {
  if (state.toolsetsProblem) throw new ToolError('CONFIG_INVALID', state.toolsetsProblem);
  if (!tool) throw unknownTool(name);
  const refused = refusal(tool, state);
  if (refused) throw refused;
  return tool;
}

function notInToolsets(name: string, set: ToolsetName, selected: readonly ToolsetName[]): ToolError {
  return new ToolError(
    'TOOLSET_NOT_ENABLED',
    `${name} is in the '${set}' toolset, which this roam-mcp does not offer (it offers: ${selected.join(', ')}). To enable it, add ${set} to --tools in the MCP client's config (e.g. --tools ${[...selected, set].join(',')}), or to ROAM_MCP_TOOLS, or choose it for this client in Roam Companion > AI clients; then restart the MCP client.`,
    { toolset: set },
  );
}

function unknownTool(name: string): ToolError {
  return new ToolError(
    'UNKNOWN_TOOL',
    `There is no tool named '${name}'. Call tools/list to see the available tools.`,
  );
}
