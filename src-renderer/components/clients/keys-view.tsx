import { useEffect, useState } from 'react';
import type { KeyView } from '../../../src-shared/ipc-contract.ts';
import { useClients, useKeys } from '../../stores/stores-context.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { ConfirmDialog } from '../shared/confirm-dialog.tsx';

/**
 * The keys clients connect to Roam Companion's HTTP server with (docs/clients.md, "Over HTTP"):
 * by name, with the level a key caps and when it was made, and Revoke. Shown once there is one.
 */
export function KeysView() {
  const keys = useKeys((s) => s.keys);
  const refresh = useKeys((s) => s.refresh);
  // Installs make and revoke keys (the clients change with them), and so does `roam-mcp key
  // create`: re-read whenever the screen opens or a client changes.
  const clients = useClients((s) => s.clients);
  useEffect(() => {
    void refresh().catch(() => {});
  }, [refresh, clients]);
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
  // A client whose key is revoked is no longer installed: its row says so at once.
  const refreshClients = useClients((s) => s.refresh);
  const [confirming, setConfirming] = useState(false);
  const { error, busy, run } = useActionError();
  return (
    <li className="row">
      <span className="strong">{item.name}</span>
      <span className="muted">
        {item.usedBy.length ? `used by ${item.usedBy.join(', ')}` : 'used by no client listed here'}
        {' · '}
        {item.access ? `at most ${item.access}` : "each graph's own level"} · created{' '}
        {new Date(item.createdAt).toLocaleDateString()}
      </span>
      <button
        type="button"
        disabled={busy}
        aria-label={`Revoke the key ${item.name}`}
        onClick={() => setConfirming(true)}
      >
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
            void run(async () => {
              await revoke(item.name);
              await refreshClients();
            });
          }}
        />
      )}
      <ActionError error={error} inline />
    </li>
  );
}
