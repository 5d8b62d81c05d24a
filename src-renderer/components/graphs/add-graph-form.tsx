import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { GRAPH_TYPES, graphId, type AccessLevel, type GraphType } from '../../../src-shared/constants.ts';
import { describeError } from '../../bridge/bridge-error.ts';
import { useApp, useGraphs, useTokens } from '../../stores/stores-context.tsx';
import { AccessLevelField } from './access-level-field.tsx';
import { ActionError } from '../shared/action-error.tsx';
import { NicknameField } from './nickname-field.tsx';
import { useAddGraphPicker, typeIn, type AddGraphPicker } from './use-add-graph-picker.ts';
import { useNicknameCheck } from './use-nickname-check.ts';

type Outcome = { graphId: string; problem?: string };

/** Add a graph (picked from Roam's list or typed), then request its token in the same flow. */
export function AddGraphForm(props: { onDone(outcome: Outcome): void; onCancel(): void }) {
  const form = useAddGraphForm(props.onDone);
  const { picker, check } = form;
  const graphName = picker.name;
  return (
    <form
      className="card form"
      aria-label="Add a graph"
      noValidate
      onSubmit={(event) => void form.submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onCancel();
      }}
    >
      <h2>Add a graph</h2>
      {/* The fields scroll in their own region; the header, the tabs and Add stay where they are. */}
      <div className="form-fields">
        <GraphPicker picker={picker} missing={form.missing} failures={form.failures} refused={!!form.error} />
        <NicknameField
          value={form.nickname}
          onChange={form.setNickname}
          check={check}
          placeholder={graphName || undefined}
          emptyHint={
            graphName
              ? `Optional. Left empty, agents call this graph by its name, '${graphName}'.`
              : 'Optional. Left empty, agents call the graph by its name.'
          }
        />
        <label className="field">
          <span>Description</span>
          <textarea
            rows={2}
            value={form.description}
            placeholder="What is in this graph, so agents pick the right one"
            onChange={(event) => form.setDescription(event.target.value)}
          />
        </label>
        {picker.publicGraph ? (
          <p className="muted small">Public graphs are read-only: agents can read it, never change it.</p>
        ) : (
          <AccessLevelField value={form.accessLevel} onChange={form.setAccessLevel} />
        )}
        <ActionError error={form.error} />
      </div>
      <div className="actions form-footer">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={form.submitting || check.state === 'invalid'}>
          {form.submitting ? 'Adding…' : 'Add and request token'}
        </button>
      </div>
    </form>
  );
}

/** Which field is missing when Add is pressed: no graph chosen, or "Type a name…" with no name. */
type Missing = 'choice' | 'name' | null;

/** The form's fields and its submit: add the graph, then request its token. */
function useAddGraphForm(onDone: (outcome: Outcome) => void) {
  const add = useGraphs((s) => s.add);
  const requestToken = useTokens((s) => s.request);
  const defaultLevel = useApp((s) => s.settings?.defaultAccessLevel);
  const picker = useAddGraphPicker();
  const { name, type } = picker;
  const [nickname, setNickname] = useState('');
  const [description, setDescription] = useState('');
  // Until the user picks one, the form follows the settings' default; before the settings arrive,
  // nothing is picked and the core applies that same default.
  const [picked, setAccessLevel] = useState<AccessLevel | null>(null);
  const accessLevel = picker.publicGraph ? 'read-only' : (picked ?? defaultLevel);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Counts refused adds: each one puts the focus back on the graph's field, where it is fixed.
  const [failures, setFailures] = useState(0);
  const [triedToAdd, setTriedToAdd] = useState(false);
  const check = useNicknameCheck(nickname.trim() || name, { name });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTriedToAdd(true);
    if (!name) return;
    if (check.state === 'invalid') return setError(check.message);
    setSubmitting(true);
    setError(null);
    let graphId: string;
    try {
      const graph = await add({
        name,
        type,
        nickname: nickname.trim() || undefined,
        description,
        accessLevel,
        ...(picker.publicGraph ? { public: true } : {}),
      });
      graphId = graph.id;
    } catch (failure) {
      setSubmitting(false);
      setFailures((n) => n + 1);
      return setError(describeError(failure));
    }
    try {
      await requestToken(graphId);
      onDone({ graphId });
    } catch (failure) {
      const label = nickname.trim() || name;
      onDone({
        graphId,
        problem: `Added '${label}', but the token request failed: ${describeError(failure)}`,
      });
    }
  }

  return {
    picker,
    check,
    nickname,
    setNickname,
    description,
    setDescription,
    accessLevel,
    setAccessLevel,
    submitting,
    error,
    failures,
    // Once Add was pressed, a missing graph or name is reported at that field until it is filled in.
    missing: (name || !triedToAdd ? null : picker.choice === typeIn ? 'name' : 'choice') as Missing,
    submit,
  };
}

function GraphPicker(props: {
  picker: AddGraphPicker;
  missing: Missing;
  failures: number;
  refused: boolean;
}) {
  const { picker, missing, failures } = props;
  const graphSelectId = useId();
  const hintId = useId();
  const refreshAvailable = useGraphs((s) => s.refreshAvailable);
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    void refreshAvailable();
  }, [refreshAvailable]);
  // The form opens on its first field, and goes back to it when Add finds no graph chosen.
  useEffect(() => selectRef.current?.focus(), []);
  useEffect(() => {
    if (missing === 'choice' || (failures > 0 && picker.choice !== typeIn)) selectRef.current?.focus();
  }, [missing, failures, picker.choice]);
  return (
    <>
      <div className="field">
        <label htmlFor={graphSelectId}>Graph</label>
        <select
          id={graphSelectId}
          ref={selectRef}
          value={picker.choice}
          aria-describedby={hintId}
          aria-invalid={missing === 'choice'}
          onChange={(event) => picker.pick(event.target.value)}
        >
          {picker.unconfigured.length > 0 && (
            <option value="" disabled>
              Choose a graph…
            </option>
          )}
          {picker.unconfigured.map((a) => (
            <option key={graphId(a)} value={graphId(a)}>
              {a.name} ({a.type})
            </option>
          ))}
          <option value={typeIn}>Type a name…</option>
        </select>
        {missing === 'choice' ? (
          <span id={hintId} className="error-text small" role="alert">
            Choose a graph from the list, or “Type a name…” to enter one.
          </span>
        ) : (
          <span id={hintId} className="muted small" aria-live="polite">
            <PickerHint picker={picker} refused={props.refused} />
          </span>
        )}
      </div>
      {picker.choice === typeIn && (
        <TypedGraph picker={picker} missing={missing === 'name'} failures={failures} />
      )}
    </>
  );
}

function TypedGraph(props: { picker: AddGraphPicker; missing: boolean; failures: number }) {
  const { picker, missing, failures } = props;
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (missing || failures > 0) inputRef.current?.focus();
  }, [missing, failures]);
  return (
    <div className="field">
      <div className="row typed-graph">
        <label className="field grow">
          <span>Graph name</span>
          <input
            ref={inputRef}
            value={picker.typedName}
            aria-invalid={missing}
            aria-describedby={missing ? errorId : undefined}
            onChange={(event) => picker.setTypedName(event.target.value)}
          />
        </label>
        <label className="field">
          <span>Type</span>
          <select
            value={picker.typedType}
            disabled={picker.publicGraph}
            onChange={(event) => picker.setTypedType(event.target.value as GraphType)}
          >
            {GRAPH_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      {missing && (
        <span id={errorId} className="error-text small" role="alert">
          Enter the graph’s name as Roam shows it (the last part of the graph’s address).
        </span>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={picker.publicGraph}
          onChange={(event) => picker.setPublicGraph(event.target.checked)}
        />
        <span>Public graph I am not a member of (read-only, e.g. help)</span>
      </label>
    </div>
  );
}

function PickerHint(props: { picker: AddGraphPicker; refused: boolean }) {
  const { picker } = props;
  const availableLoad = useGraphs((s) => s.availableLoad);
  if (availableLoad.phase === 'loading') return 'Asking Roam Desktop for your graphs…';
  if (availableLoad.phase === 'error')
    // The reason is a sentence of its own (it may hold parentheses): not one in brackets.
    return `Roam did not list your graphs: ${availableLoad.message.replace(/([^.])$/, '$1.')} Or type the graph's name.`;
  if (picker.publicGraph) return 'Roam does not list public graphs: the name is asked for as typed.';
  // Once Add was refused, the form's alert says it (with what to do): not twice.
  if (picker.choice === typeIn && picker.typedName.trim() && !picker.listed && !props.refused)
    return `Roam Desktop does not list a ${picker.typedType} graph '${picker.typedName.trim()}': check the spelling.`;
  return picker.unconfigured.length
    ? 'Graphs open in Roam Desktop and not added yet.'
    : 'Roam reports no other graphs; type the name.';
}
