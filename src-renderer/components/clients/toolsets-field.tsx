import {
  servedToolCount,
  TOOLSET_NAMES,
  TOOLSET_SUMMARIES,
  TOOLSET_TOOL_COUNTS,
  type ToolsetName,
} from '../../../src-shared/toolsets.ts';

const tools = (count: number) => `${count} tool${count === 1 ? '' : 's'}`;

/**
 * What a client's chats are served for `sets`: the tools listed whatever Roam offers, and the
 * probed ones on top (semantic search) where a graph offers them.
 */
export function servedText(sets: readonly ToolsetName[]): string {
  const { always, probed } = servedToolCount(sets);
  return probed
    ? `${tools(always)} (${always + probed} where Roam Desktop offers semantic search)`
    : tools(always);
}

/**
 * Checkboxes for the toolsets a client gets (docs/mcp.md, Toolsets), with the tools each adds and
 * the client's total; at least one stays chosen. `cap`: the client works poorly past that many.
 * Folded to one line with the choice and its count, on every card: a screen of clients is not six
 * checkboxes each; a choice past the cap says so on that line too.
 */
export function ToolsetsField(props: {
  clientName: string;
  value: readonly ToolsetName[];
  cap?: number;
  onChange(toolsets: ToolsetName[]): void;
}) {
  const toggle = (set: ToolsetName, on: boolean) =>
    props.onChange(TOOLSET_NAMES.filter((name) => (name === set ? on : props.value.includes(name))));
  const { always, probed } = servedToolCount(props.value);
  const overCap = props.cap !== undefined && always + probed > props.cap;
  return (
    <details className="toolsets">
      <summary>
        <span className="strong">Tools</span>
        <span className="muted small">{` ${props.value.join(', ')} · ${tools(always)}`}</span>
        {overCap && (
          <span className="warning-text small">{` · more than ${props.clientName} works well with`}</span>
        )}
      </summary>
      <fieldset aria-label={`Toolsets for ${props.clientName}`}>
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
          {`${props.clientName} gets ${servedText(props.value)}.`}
          {props.cap !== undefined &&
            ` ${props.clientName} works poorly past about ${props.cap} tools across all its servers${overCap ? ': choose fewer sets.' : '.'}`}
        </p>
      </fieldset>
    </details>
  );
}
