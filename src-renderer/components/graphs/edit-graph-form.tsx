import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { GraphView } from '../../../src-shared/ipc-contract.ts';
import type { AccessLevel } from '../../../src-shared/constants.ts';
import type { ConfirmPolicy } from '../../../src-shared/roam-config.ts';
import { useGraphs } from '../../stores/stores-context.tsx';
import { accessFit } from './access-fit.ts';
import { AccessLevelField } from './access-level-field.tsx';
import { ConfirmField } from '../shared/confirm-field.tsx';
import { accessLevelText } from '../shared/access-levels.ts';
import { NicknameField } from './nickname-field.tsx';
import { useNicknameCheck } from './use-nickname-check.ts';
import { ActionError, useActionError } from '../shared/action-error.tsx';

export function EditGraphForm(props: { graph: GraphView; onClose(): void }) {
  const { graph } = props;
  const update = useGraphs((s) => s.update);
  const [nickname, setNickname] = useState(graph.nickname);
  const [description, setDescription] = useState(graph.description ?? '');
  const [accessLevel, setAccessLevel] = useState<AccessLevel>(graph.accessLevel);
  const shownConfirm = graph.confirm ?? 'destructive';
  const [confirm, setConfirm] = useState<ConfirmPolicy>(shownConfirm);
  const { error, setError, run } = useActionError();
  const check = useNicknameCheck(nickname, { exceptId: graph.id });
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Keyboard users continue in the form they opened, and all of it is in sight, its buttons too
  // (it is at most as tall as the screen; the graph's row above it may not be).
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus({ preventScroll: true });
    formRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!nickname.trim()) return setError('The nickname cannot be empty: agents use it to name this graph.');
    if (check.state === 'invalid') return setError(check.message);
    await run(async () => {
      // Only a choice made here becomes the graph's own; untouched, it keeps following Settings.
      const ownConfirm = confirm !== shownConfirm ? { confirm } : {};
      await update({ id: graph.id, nickname: nickname.trim(), description, accessLevel, ...ownConfirm });
      props.onClose();
    });
  }

  return (
    <form
      ref={formRef}
      className="form edit-form"
      aria-labelledby={titleId}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onClose();
      }}
    >
      <h3 id={titleId}>Edit {graph.nickname}</h3>
      <div className="form-fields">
        <NicknameField value={nickname} onChange={setNickname} check={check} current={graph.nickname} />
        <label className="field">
          <span>Description</span>
          <textarea rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
        </label>
        <AccessLevelField value={accessLevel} onChange={setAccessLevel} />
        <LevelChangeHint graph={graph} level={accessLevel} />
        <ConfirmField
          value={confirm}
          note={
            graph.confirmOwn
              ? 'This graph’s own choice: Settings does not change it.'
              : 'As in Settings until you choose here; a choice here is for this graph only.'
          }
          onChange={setConfirm}
        />
        <ActionError error={error} />
      </div>
      <div className="actions form-footer">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={check.state === 'invalid'}>
          Save
        </button>
      </div>
    </form>
  );
}

/** What a new level means for the token the graph already has. */
function LevelChangeHint(props: { graph: GraphView; level: AccessLevel }) {
  const { graph, level } = props;
  if (level === graph.accessLevel) return null;
  const chosen = accessLevelText[level].label;
  const granted = graph.token.grantedAccessLevel && accessLevelText[graph.token.grantedAccessLevel].label;
  switch (accessFit({ ...graph, accessLevel: level })) {
    case 'wider':
      return (
        <p className="warning-text small" role="status">
          The token is limited to {granted}: after saving, request a {chosen} token (the graph offers it).
        </p>
      );
    case 'same':
    case 'narrower':
      return (
        <p className="muted small" role="status">
          The token allows it: roam-mcp holds agents to {chosen} as soon as you save.
        </p>
      );
    case 'unknown':
      return (
        <p className="muted small" role="status">
          Roam has not said what the token grants; if agents need more than it allows, request a new token.
        </p>
      );
    default:
      return null;
  }
}
