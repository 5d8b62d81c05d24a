import { useEffect, useState } from 'react';
import type { ClientChangeView, ClientView } from '../../src-shared/ipc-contract.ts';
import {
  DEFAULT_TOOLSETS,
  installDefaultToolsets,
  TOOL_CAPPED_CLIENTS,
  TOOLSET_NAMES,
  type ToolsetName,
} from '../../src-shared/toolsets.ts';
import { useClients } from '../stores/stores-context.tsx';
import { ActionError, useActionError } from './action-error.tsx';
import { ChangeConfirmation } from './client-change-preview.tsx';
import { useReturnFocus } from './return-focus.ts';
import { CopyButton } from './copy-button.tsx';
import { LoadGate } from './load-gate.tsx';
import { ToolsetsField } from './toolsets-field.tsx';
import { KeysView } from './keys-view.tsx';

const stateText: Record<ClientView['state'], string> = {
  installed: 'Installed',
  'not-installed': 'Not installed',
  stale: 'Needs update',
  unavailable: 'Not available',
};

export function ClientsView() {
  const clients = useClients((s) => s.clients);
  const load = useClients((s) => s.load);
  const refresh = useClients((s) => s.refresh);
  // Clients get installed, updated or edited outside this app: re-check whenever the screen opens.
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return (
    <div className="view">
      <h2>Connect AI clients</h2>
      <LoadGate state={load} what="AI clients" onRetry={() => void refresh()}>
        {clients.length === 0 ? (
          <p className="empty muted">No AI clients are known on this computer.</p>
        ) : (
          <ul className="list" aria-label="AI clients">
            {clients.map((client) => (
              // A choice changed outside (another window, a hand edit) starts the row afresh.
              <ClientRow key={`${client.id}:${client.toolsets?.join(',') ?? ''}`} client={client} />
            ))}
          </ul>
        )}
      </LoadGate>
      <KeysView />
    </div>
  );
}

function ClientRow(props: { client: ClientView }) {
  const { client } = props;
  const preview = useClients((s) => s.preview);
  const apply = useClients((s) => s.apply);
  const [pending, setPending] = useState<ClientChangeView | null>(null);
  const { error, busy, run } = useActionError();
  // Closing the preview puts the focus back on the action that opened it (or, once applied, its opposite).
  const returnFocus = useReturnFocus<Action>();
  const current = entryToolsets(client);
  // A new entry in a client with a tool cap starts from the sets that fit it, and always says so.
  const capped = isNewEntry(client) ? installDefaultToolsets(client.id) : undefined;
  const [toolsets, setToolsets] = useState<ToolsetName[]>(capped ? [...capped] : current);
  // Otherwise sent only when it changes the entry's choice: an untouched install follows the server default.
  const newChoice = capped || !sameSets(toolsets, current) ? toolsets : undefined;
  const startChange = (action: 'install' | 'uninstall') =>
    run(async () => setPending(await preview(client.id, action, newChoice)));
  const confirmChange = (change: ClientChangeView) =>
    run(async () => {
      await apply(client.id, change.action, change.action === 'install' ? newChoice : undefined);
      returnFocus.arm(change.action === 'install' ? 'uninstall' : 'install');
      setPending(null);
    });
  const cancelChange = (change: ClientChangeView) => {
    returnFocus.arm(change.action);
    setPending(null);
  };

  return (
    <li className="card" aria-label={client.name}>
      <div className="row">
        <span className="strong grow">{client.name}</span>
        <span className={`badge client-${client.state}`}>{stateText[client.state]}</span>
      </div>
      {client.configPath && <p className="muted small path">{client.configPath}</p>}
      {client.message && <p className="small">{client.message}</p>}
      {client.command ? (
        <div className="command">
          <code>{client.command}</code>
          <CopyButton text={client.command} label={`Copy the ${client.name} command`} />
        </div>
      ) : (
        !pending &&
        client.state !== 'unavailable' && (
          <>
            <ToolsetsField
              clientName={client.name}
              value={toolsets}
              cap={
                Object.hasOwn(TOOL_CAPPED_CLIENTS, client.id)
                  ? TOOL_CAPPED_CLIENTS[client.id]!.cap
                  : undefined
              }
              onChange={setToolsets}
            />
            <ClientActions
              client={client}
              busy={busy}
              toolsetsChanged={newChoice !== undefined}
              focusRef={returnFocus.ref}
              onChange={(action) => void startChange(action)}
            />
          </>
        )
      )}
      {pending && (
        <ChangeConfirmation
          preview={pending}
          clientName={client.name}
          busy={busy}
          onCancel={() => cancelChange(pending)}
          onConfirm={() => void confirmChange(pending)}
        />
      )}
      <ActionError error={error} />
    </li>
  );
}

/** The entry's toolsets, or the server's default when it chooses none (or names unknown ones). */
function entryToolsets(client: ClientView): ToolsetName[] {
  const chosen = client.toolsets?.includes('all')
    ? TOOLSET_NAMES
    : TOOLSET_NAMES.filter((set) => client.toolsets?.includes(set));
  return chosen.length ? chosen : [...DEFAULT_TOOLSETS];
}

/** No entry yet: the install writes a new one (an existing entry is the user's). */
const isNewEntry = (client: ClientView) => client.state === 'not-installed' || client.state === 'unavailable';

const sameSets = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((set) => b.includes(set));

type Action = 'install' | 'uninstall';

function ClientActions(props: {
  client: ClientView;
  busy: boolean;
  toolsetsChanged: boolean;
  focusRef(action: Action): (element: HTMLElement | null) => void;
  onChange(action: Action): void;
}) {
  const { client, busy, focusRef } = props;
  return (
    <div className="actions">
      {client.state !== 'installed' && (
        <button
          type="button"
          disabled={busy}
          ref={focusRef('install')}
          onClick={() => props.onChange('install')}
        >
          {client.state === 'stale' ? `Update ${client.name}…` : `Install into ${client.name}…`}
        </button>
      )}
      {client.state === 'installed' && props.toolsetsChanged && (
        <button
          type="button"
          disabled={busy}
          ref={focusRef('install')}
          onClick={() => props.onChange('install')}
        >
          {`Apply the toolsets to ${client.name}…`}
        </button>
      )}
      {client.state !== 'not-installed' && (
        <button
          type="button"
          disabled={busy}
          ref={focusRef('uninstall')}
          onClick={() => props.onChange('uninstall')}
        >
          {`Uninstall from ${client.name}…`}
        </button>
      )}
    </div>
  );
}
