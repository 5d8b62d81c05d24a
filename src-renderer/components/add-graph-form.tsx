import { useEffect, useId, useState, type FormEvent } from 'react';
import { GRAPH_TYPES, graphId, type AccessLevel, type GraphType } from '../../src-shared/constants.ts';
import { describeError } from '../bridge/bridge-error.ts';
import { useApp, useGraphs, useTokens } from '../stores/stores-context.tsx';
import { AccessLevelField } from './access-level-field.tsx';
import { NicknameField } from './nickname-field.tsx';
import { useNicknameCheck } from './use-nickname-check.ts';

const typeIn = 'type-in';

/** Add a graph (picked from Roam's list or typed), then request its token in the same flow. */
export function AddGraphForm(props: {
  onDone(outcome: { graphId: string; problem?: string }): void;
  onCancel(): void;
}) {
  const available = useGraphs((s) => s.available);
  const availableLoad = useGraphs((s) => s.availableLoad);
  const refreshAvailable = useGraphs((s) => s.refreshAvailable);
  const configured = useGraphs((s) => s.graphs);
  const add = useGraphs((s) => s.add);
  const requestToken = useTokens((s) => s.request);
  const defaultLevel = useApp((s) => s.settings?.defaultAccessLevel ?? 'read-only');

  const graphSelectId = useId();
  const [picked, setPicked] = useState('');
  const [typedName, setTypedName] = useState('');
  const [typedType, setTypedType] = useState<GraphType>('hosted');
  const [nickname, setNickname] = useState('');
  const [description, setDescription] = useState('');
  const [accessLevel, setAccessLevel] = useState<AccessLevel>(defaultLevel);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void refreshAvailable();
  }, [refreshAvailable]);

  const unconfigured = available.filter(
    (a) => !configured.some((g) => g.name === a.name && g.type === a.type),
  );
  const choice = picked || (unconfigured.length ? '' : typeIn);
  const chosen = unconfigured.find((a) => graphId(a) === choice);
  const name = choice === typeIn ? typedName.trim() : (chosen?.name ?? '');
  const type = choice === typeIn ? typedType : (chosen?.type ?? 'hosted');
  const effectiveNickname = nickname.trim() || name;
  const check = useNicknameCheck(effectiveNickname, { name });
  const pickMessage = 'Pick a graph from the list, or choose "Type a name" and enter it.';
  // The "pick a graph" error is about the current input: it goes once a graph is picked or typed.
  const shownError = error === pickMessage && name ? null : error;

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
      props.onDone({ graphId });
    } catch (failure) {
      props.onDone({
        graphId,
        problem: `Added '${effectiveNickname}', but the token request failed: ${describeError(failure)}`,
      });
    }
  }

  return (
    <form className="card form" aria-label="Add a graph" onSubmit={(event) => void submit(event)}>
      <h2>Add a graph</h2>
      <div className="field">
        <label htmlFor={graphSelectId}>Graph</label>
        <select id={graphSelectId} value={choice} onChange={(event) => setPicked(event.target.value)}>
          {unconfigured.length > 0 && (
            <option value="" disabled>
              Choose a graph…
            </option>
          )}
          {unconfigured.map((a) => (
            <option key={graphId(a)} value={graphId(a)}>
              {a.name} ({a.type})
            </option>
          ))}
          <option value={typeIn}>Type a name…</option>
        </select>
        <span className="muted small" aria-live="polite">
          {availableLoad.phase === 'loading'
            ? 'Asking Roam Desktop for your graphs…'
            : availableLoad.phase === 'error'
              ? `Roam did not list your graphs (${availableLoad.message}). Type the name instead.`
              : unconfigured.length
                ? 'Graphs open in Roam Desktop and not added yet.'
                : 'Roam reports no other graphs; type the name.'}
        </span>
      </div>
      {choice === typeIn && (
        <div className="row">
          <label className="field grow">
            <span>Graph name</span>
            <input value={typedName} onChange={(event) => setTypedName(event.target.value)} />
          </label>
          <label className="field">
            <span>Type</span>
            <select value={typedType} onChange={(event) => setTypedType(event.target.value as GraphType)}>
              {GRAPH_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      <NicknameField value={nickname} onChange={setNickname} check={check} placeholder={name || undefined} />
      <label className="field">
        <span>Description</span>
        <textarea
          rows={2}
          value={description}
          placeholder="What is in this graph, so agents pick the right one"
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
      <AccessLevelField value={accessLevel} onChange={setAccessLevel} />
      {shownError && (
        <p role="alert" className="error-text">
          {shownError}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={submitting || check.state === 'invalid'}>
          {submitting ? 'Adding…' : 'Add and request token'}
        </button>
      </div>
    </form>
  );
}
