import { TOOLSET_NAMES, TOOLSET_SUMMARIES, type ToolsetName } from '../../src-shared/toolsets.ts';

/** Checkboxes for the toolsets a client gets (docs/mcp.md, Toolsets); at least one stays chosen. */
export function ToolsetsField(props: {
  clientName: string;
  value: readonly ToolsetName[];
  onChange(toolsets: ToolsetName[]): void;
}) {
  const toggle = (set: ToolsetName, on: boolean) =>
    props.onChange(TOOLSET_NAMES.filter((name) => (name === set ? on : props.value.includes(name))));
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
            <span className="muted small"> — {TOOLSET_SUMMARIES[set]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
