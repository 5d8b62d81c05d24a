import {
  TOOLSET_NAMES,
  TOOLSET_SUMMARIES,
  TOOLSET_TOOL_COUNTS,
  toolCount,
  type ToolsetName,
} from '../../src-shared/toolsets.ts';

const tools = (count: number) => `${count} tool${count === 1 ? '' : 's'}`;

/**
 * Checkboxes for the toolsets a client gets (docs/mcp.md, Toolsets), with the tools each adds and
 * the client's total; at least one stays chosen. `cap`: the client works poorly past that many.
 */
export function ToolsetsField(props: {
  clientName: string;
  value: readonly ToolsetName[];
  cap?: number;
  onChange(toolsets: ToolsetName[]): void;
}) {
  const toggle = (set: ToolsetName, on: boolean) =>
    props.onChange(TOOLSET_NAMES.filter((name) => (name === set ? on : props.value.includes(name))));
  const total = toolCount(props.value);
  const overCap = props.cap !== undefined && total > props.cap;
  return (
    <fieldset className="toolsets" aria-label={`Toolsets for ${props.clientName}`}>
      <legend>Tools it gets (each one costs context in every chat)</legend>
      {TOOLSET_NAMES.map((set) => (
        <label key={set} className="checkbox">
          <input
            type="checkbox"
            checked={props.value.includes(set)}
            disabled={props.value.length === 1 && props.value.includes(set)}
            onChange={(event) => toggle(set, event.target.checked)}
          />
          <span>
            <span className="strong">{set}</span>
            <span className="muted small">
              {' '}
              — {TOOLSET_SUMMARIES[set]} ({tools(TOOLSET_TOOL_COUNTS[set])})
            </span>
          </span>
        </label>
      ))}
      <p className="small" aria-label={`Tool count for ${props.clientName}`} role="status">
        {`${props.clientName} gets up to ${tools(total)} of ${toolCount(TOOLSET_NAMES)} (a tool is left out when Roam Desktop does not offer it, e.g. semantic search).`}
        {props.cap !== undefined &&
          ` ${props.clientName} works poorly past about ${props.cap} tools across all its servers${overCap ? ': choose fewer sets.' : '.'}`}
      </p>
    </fieldset>
  );
}
