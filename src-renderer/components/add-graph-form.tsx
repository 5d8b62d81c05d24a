import { useEffect, useId, useState, type FormEvent } from 'react';
import { GRAPH_TYPES, graphId, type AccessLevel, type GraphType } from '../../src-shared/constants.ts';
import type { AvailableGraph } from '../../src-shared/ipc-contract.ts';
import { describeError } from '../bridge/bridge-error.ts';
import { useApp, useGraphs, useTokens } from '../stores/stores-context.tsx';
import { AccessLevelField } from './access-level-field.tsx';
import { ActionError } from './action-error.tsx';
import { NicknameField } from './nickname-field.tsx';
import { useAddGraphPicker, typeIn, type AddGraphPicker } from './use-add-graph-picker.ts';
import { useNicknameCheck } from './use-nickname-check.ts';

type Outcome = { graphId: string; problem?: string };

/** Add a graph (picked from Roam's list or typed), then request its token in the same flow. */
export function AddGraphForm(props: { onDone(outcome: Outcome): void; onCancel(): void }) {
  const form = useAddGraphForm(props.onDone);
  const { picker, check } = form;
  return (
    <form className="card form" aria-label="Add a graph" onSubmit={(event) => void form.submit(event)}>
      <h2>Add a graph</h2>
      <GraphPicker picker={picker} />
      <NicknameField
        value={form.nickname}
        onChange={form.setNickname}
        check={check}
        placeholder={picker.name || undefined}
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
      <AccessLevelField value={form.accessLevel} onChange={form.setAccessLevel} />
      <ActionError error={form.error} />
      <div className="actions">
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

const pickMessage = 'Pick a graph from the list, or choose "Type a name" and enter it.';

/** The form's fields and its submit: add the graph, then request its token. */
function useAddGraphForm(onDone: (outcome: Outcome) => void) {
  const add = useGraphs((s) => s.add);
  const requestToken = useTokens((s) => s.request);
  const defaultLevel = useApp((s) => s.settings?.defaultAccessLevel ?? 'read-only');
  const picker = useAddGraphPicker();
  const { name, type } = picker;
  const [nickname, setNickname] = useState('');
  const [description, setDescription] = useState('');
  const [accessLevel, setAccessLevel] = useState<AccessLevel>(defaultLevel);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const effectiveNickname = nickname.trim() || name;
  const check = useNicknameCheck(effectiveNickname, { name });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name) return setError(pickMessage);
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
      });
      graphId = graph.id;
    } catch (failure) {
      setSubmitting(false);
      return setError(describeError(failure));
    }
    try {
      await requestToken(graphId, accessLevel);
      onDone({ graphId });
    } catch (failure) {
      const problem = `Added '${effectiveNickname}', but the token request failed: ${describeError(failure)}`;
      onDone({ graphId, problem });
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
    // The "pick a graph" error is about the current input: it goes once a graph is picked or typed.
    error: error === pickMessage && name ? null : error,
    submit,
  };
}

function GraphPicker(props: { picker: AddGraphPicker }) {
  const { picker } = props;
  const graphSelectId = useId();
  const refreshAvailable = useGraphs((s) => s.refreshAvailable);
  useEffect(() => {
    void refreshAvailable();
  }, [refreshAvailable]);
  return (
    <>
      <div className="field">
        <label htmlFor={graphSelectId}>Graph</label>
        <select
          id={graphSelectId}
          value={picker.choice}
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
        <span className="muted small" aria-live="polite">
          <PickerHint unconfigured={picker.unconfigured} />
        </span>
      </div>
      {picker.choice === typeIn && (
        <div className="row">
          <label className="field grow">
            <span>Graph name</span>
            <input value={picker.typedName} onChange={(event) => picker.setTypedName(event.target.value)} />
          </label>
          <label className="field">
            <span>Type</span>
            <select
              value={picker.typedType}
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
      )}
    </>
  );
}

function PickerHint(props: { unconfigured: AvailableGraph[] }) {
  const availableLoad = useGraphs((s) => s.availableLoad);
  if (availableLoad.phase === 'loading') return 'Asking Roam Desktop for your graphs…';
  if (availableLoad.phase === 'error')
    return `Roam did not list your graphs (${availableLoad.message}). Type the name instead.`;
  return props.unconfigured.length
    ? 'Graphs open in Roam Desktop and not added yet.'
    : 'Roam reports no other graphs; type the name.';
}
