import type { RemoteConnectionView } from '../../../src-shared/ipc-contract.ts';
import { useRemote } from '../../stores/stores-context.tsx';
import { accessLevelText } from '../shared/access-levels.ts';
import { ActionError, useActionError } from '../shared/action-error.tsx';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The chat apps connected through the tunnel: who, where their answers went, what they may do. */
export function RemoteConnections({ connections }: { connections: RemoteConnectionView[] }) {
  if (connections.length === 0) return null;
  return (
    <section aria-labelledby="remote-connections-heading">
      <h3 id="remote-connections-heading">Connections</h3>
      <ul className="list" aria-label="Remote connections">
        {connections.map((connection) => (
          <ConnectionRow key={connection.id} connection={connection} />
        ))}
      </ul>
    </section>
  );
}

function ConnectionRow({ connection }: { connection: RemoteConnectionView }) {
  const revoke = useRemote((s) => s.revoke);
  const { error, busy, run } = useActionError();
  return (
    <li className="card remote-connection">
      <div className="row">
        <span className="grow">
          <span className="strong">{connection.clientName}</span>{' '}
          {!connection.verified && <span className="badge warning-text">unverified</span>}
        </span>
        <button
          type="button"
          className="danger"
          disabled={busy}
          aria-label={`Revoke ${connection.clientName}`}
          onClick={() => void run(() => revoke(connection.id))}
        >
          Revoke
        </button>
      </div>
      <p className="small muted">
        Signed in for {connection.redirectHost} ·{' '}
        {connection.level ? `at most ${accessLevelText[connection.level].label}` : "each graph's own level"}
        {connection.toolsets ? ` · ${connection.toolsets.join(', ')}` : ''}
        {connection.graphs ? ` · only ${connection.graphs.join(', ')}` : ' · every graph'}
      </p>
      <p className="small muted">
        {connection.usedAt ? `Last used ${when(connection.usedAt)}` : 'Not used yet'} · approved{' '}
        {when(connection.createdAt)}
      </p>
      <ActionError error={error} inline />
    </li>
  );
}
