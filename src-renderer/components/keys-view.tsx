import { useEffect, useState } from 'react';
import type { KeyView } from '../../src-shared/ipc-contract.ts';
import { useKeys } from '../stores/stores-context.tsx';
import { ActionError, useActionError } from './action-error.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * The keys clients connect to Roam Companion's HTTP server with (docs/clients.md, "Over HTTP"):
 * by name, with the level a key caps and when it was made, and Revoke. Shown once there is one.
 */
export function KeysView() {
  const keys = useKeys((s) => s.keys);
  const refresh = useKeys((s) => s.refresh);
  // Keys are made by installs here and by `roam-mcp key create`: re-read whenever the screen opens.
  useEffect(() => {
    void refresh().catch(() => {});
  }, [refresh]);
  if (keys.length === 0) return null;
  return (
    <section aria-labelledby="keys-heading">
      <h3 id="keys-heading">Client keys</h3>
      <p className="muted">
        Clients connected over HTTP present one of these. Revoking a key disconnects its client.
      </p>
      <ul className="list" aria-label="Client keys">
        {keys.map((key) => (
          <KeyRow key={key.name} item={key} />
        ))}
      </ul>
    </section>
  );
}

function KeyRow(props: { item: KeyView }) {
  const { item } = props;
  const revoke = useKeys((s) => s.revoke);
  const [confirming, setConfirming] = useState(false);
  const { error, busy, run } = useActionError();
  return (
    <li className="row">
      <span className="strong">{item.name}</span>
      <span className="muted">
        {item.access ? `at most ${item.access}` : "the graphs' own levels"} · created{' '}
        {new Date(item.createdAt).toLocaleDateString()}
      </span>
      <button type="button" disabled={busy} onClick={() => setConfirming(true)}>
        Revoke
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Revoke the key '${item.name}'?`}
          body="The client using it is refused from its next request. To give it a new key, install it again (Claude Code: copy its command again)."
          confirmLabel="Revoke"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(() => revoke(item.name));
          }}
        />
      )}
      <ActionError error={error} inline />
    </li>
  );
}
