import { useState, type FormEvent } from 'react';
import type { GraphView } from '../../src-shared/ipc-contract.ts';
import type { AccessLevel } from '../../src-shared/roam-config.ts';
import { useGraphs } from '../stores/stores-context.tsx';
import { AccessLevelField } from './access-level-field.tsx';
import { NicknameField } from './nickname-field.tsx';
import { useNicknameCheck } from './use-nickname-check.ts';
import { ActionError, useActionError } from './action-error.tsx';

export function EditGraphForm(props: { graph: GraphView; onClose(): void }) {
  const { graph } = props;
  const update = useGraphs((s) => s.update);
  const [nickname, setNickname] = useState(graph.nickname);
  const [description, setDescription] = useState(graph.description ?? '');
  const [accessLevel, setAccessLevel] = useState<AccessLevel>(graph.accessLevel);
  const { error, setError, run } = useActionError();
  const check = useNicknameCheck(nickname, { exceptId: graph.id });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!nickname.trim()) return setError('The nickname cannot be empty: agents use it to name this graph.');
    if (check.state === 'invalid') return setError(check.message);
    await run(async () => {
      await update({ id: graph.id, nickname: nickname.trim(), description, accessLevel });
      props.onClose();
    });
  }

  return (
    <form className="form" aria-label={`Edit ${graph.nickname}`} onSubmit={(event) => void submit(event)}>
      <NicknameField value={nickname} onChange={setNickname} check={check} />
      <label className="field">
        <span>Description</span>
        <textarea rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <AccessLevelField value={accessLevel} onChange={setAccessLevel} />
      {accessLevel !== graph.accessLevel && graph.token.state === 'ok' && (
        <p className="muted small">The current token keeps its level; request a new token after saving.</p>
      )}
      <ActionError error={error} />
      <div className="actions">
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
