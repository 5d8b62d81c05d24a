import { useEffect, useRef, useState } from 'react';
import type { ClientChangeOutcome, ClientChangeView, ClientView } from '../../../src-shared/ipc-contract.ts';
import {
  DEFAULT_TOOLSETS,
  installDefaultToolsets,
  TOOL_CAPPED_CLIENTS,
  TOOLSET_NAMES,
  type ToolsetName,
} from '../../../src-shared/toolsets.ts';
import { useClients } from '../../stores/stores-context.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { ChangeConfirmation } from './client-change-preview.tsx';
import { useReturnFocus } from '../shared/return-focus.ts';
import { CopyButton } from '../shared/copy-button.tsx';
import { KeyedCommandCopy } from './keyed-command-copy.tsx';
import { LoadGate } from '../shared/load-gate.tsx';
import { servedText, ToolsetsField } from './toolsets-field.tsx';
import { KeysView } from './keys-view.tsx';

const stateText: Record<ClientView['state'], string> = {
  installed: 'Installed',
  'not-installed': 'Not installed',
  stale: 'Needs update',
  unavailable: 'Not available',
  'config-error': 'Config error',
};

export function ClientsView() {
  const clients = useClients((s) => s.clients);
  const load = useClients((s) => s.load);
  const refresh = useClients((s) => s.refresh);
  // Kept here: a row starts afresh when its entry changes, and the outcome must outlive that.
  const [outcomes, setOutcomes] = useState<Partial<Record<string, Done>>>({});
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
              <ClientRow
                key={`${client.id}:${client.toolsets?.join(',') ?? ''}`}
                client={client}
                done={outcomes[client.id] ?? null}
                setDone={(done) => setOutcomes((all) => ({ ...all, [client.id]: done ?? undefined }))}
              />
            ))}
          </ul>
        )}
      </LoadGate>
      <KeysView />
    </div>
  );
}

/** What the row last did: an install or uninstall (a file changed), or its key's new toolsets. */
type Done = { action: Action; outcome: ClientChangeOutcome } | { action: 'toolsets'; client: ClientView };

function ClientRow(props: { client: ClientView; done: Done | null; setDone(done: Done | null): void }) {
  const { client, done } = props;
  const current = entryToolsets(client);
  // A new entry in a client with a tool cap starts from the sets that fit it, and always says so.
  const capped = isNewEntry(client) ? installDefaultToolsets(client.id) : undefined;
  const [toolsets, setToolsets] = useState<ToolsetName[]>(capped ? [...capped] : current);
  // Otherwise sent only when it changes the entry's choice: an untouched install follows the server default.
  const newChoice = capped || !sameSets(toolsets, current) ? toolsets : undefined;
  const {
    pending,
    error,
    busy,
    returnFocus,
    startChange,
    confirmChange,
    cancelChange,
    dismiss,
    setKeyToolsets,
  } = useClientChange(client, newChoice, props.setDone);
  // Over HTTP the toolsets ride with the client's key: a new choice changes the key, not the file.
  const keyCarriesToolsets = client.transport === 'http' && client.state === 'installed';

  return (
    <li className="card" aria-label={client.name}>
      <ClientHeading client={client} />
      {client.command && client.commandKey ? (
        <KeyedCommandCopy client={client} command={client.command} keyName={client.commandKey} />
      ) : client.command ? (
        <div className="command">
          <code>{client.command}</code>
          <CopyButton text={client.command} label={`Copy the ${client.name} command`} />
        </div>
      ) : (
        !pending &&
        client.state !== 'unavailable' &&
        client.state !== 'config-error' && (
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
              onChange={(action) =>
                void (action === 'toolsets' && keyCarriesToolsets && newChoice
                  ? setKeyToolsets(newChoice)
                  : startChange(action === 'toolsets' ? 'install' : action))
              }
            />
          </>
        )
      )}
      {pending && (
        <ChangeConfirmation
          preview={pending}
          clientName={client.name}
          hasEntry={client.state === 'installed' || client.state === 'stale'}
          busy={busy}
          onCancel={() => cancelChange(pending)}
          onConfirm={() => void confirmChange(pending)}
        />
      )}
      {done?.action === 'toolsets' ? (
        <ToolsetsOutcome client={done.client} onDismiss={() => dismiss(done)} />
      ) : (
        done && <ChangeOutcome clientName={client.name} {...done} onDismiss={() => dismiss(done)} />
      )}
      <ActionError error={error} />
    </li>
  );
}

/**
 * Preview, confirm or cancel, then the outcome until dismissed. Closing the preview or the outcome
 * puts the focus back on the action that opened it (or, once applied, its opposite).
 */
function useClientChange(
  client: ClientView,
  newChoice: ToolsetName[] | undefined,
  setDone: (done: Done | null) => void,
) {
  const preview = useClients((s) => s.preview);
  const apply = useClients((s) => s.apply);
  const setToolsets = useClients((s) => s.setToolsets);
  const [pending, setPending] = useState<ClientChangeView | null>(null);
  const { error, busy, run } = useActionError();
  const returnFocus = useReturnFocus<Action | 'toolsets'>();
  const opposite = (action: Action): Action => (action === 'install' ? 'uninstall' : 'install');
  return {
    pending,
    error,
    busy,
    returnFocus,
    startChange: (action: Action) =>
      run(async () => {
        setDone(null);
        setPending(await preview(client.id, action, newChoice));
      }),
    confirmChange: (change: ClientChangeView) =>
      run(async () => {
        const choice = change.action === 'install' ? newChoice : undefined;
        setDone({ action: change.action, outcome: await apply(client.id, change.action, choice) });
        returnFocus.arm(opposite(change.action));
        setPending(null);
      }),
    cancelChange: (change: ClientChangeView) => {
      returnFocus.arm(change.action);
      setPending(null);
    },
    setKeyToolsets: (toolsets: ToolsetName[]) =>
      run(async () => {
        setDone(null);
        setDone({ action: 'toolsets', client: await setToolsets(client.id, toolsets) });
      }),
    dismiss: (outcome: Done) => {
      returnFocus.arm(outcome.action === 'toolsets' ? 'uninstall' : opposite(outcome.action));
      setDone(null);
    },
  };
}

function ClientHeading({ client }: { client: ClientView }) {
  return (
    <>
      <div className="row">
        <span className="strong grow">{client.name}</span>
        <span className={`badge client-${client.state}`}>{stateText[client.state]}</span>
      </div>
      {client.configPath && <p className="muted small path">{client.configPath}</p>}
      {client.transport && (client.state !== 'unavailable' || client.command) && (
        <p className="small">
          {/* Without our entry yet, it says how an install will connect it, not how it does. */}
          {client.state === 'installed' || client.state === 'stale'
            ? transportText[client.transport]
            : `Once installed, ${transportText[client.transport].charAt(0).toLowerCase()}${transportText[client.transport].slice(1)}`}
        </p>
      )}
      {client.message && <p className="small">{client.message}</p>}
    </>
  );
}

const transportText: Record<NonNullable<ClientView['transport']>, string> = {
  http: "Over HTTP: the tray's server, with a key of its own.",
  stdio: 'Over stdio: a roam-mcp of its own for each chat.',
};

/** A client's key got new toolsets: who gets them, and that no file changed. */
function ToolsetsOutcome(props: { client: ClientView; onDismiss(): void }) {
  const { client } = props;
  const sets = entryToolsets(client);
  // The button that asked is gone with the old choice: the answer takes the focus instead.
  const ok = useRef<HTMLButtonElement>(null);
  useEffect(() => ok.current?.focus(), []);
  return (
    <div className="notice" role="status" aria-label={`${client.name}: done`}>
      <p className="strong">{`${client.name}'s key now gives ${sets.join(', ')}: ${servedText(sets)}.`}</p>
      <p>{`Its new chats get them; a chat open now keeps its tools. ${client.name}'s config was not changed.`}</p>
      <div className="actions">
        <button type="button" ref={ok} onClick={props.onDismiss}>
          OK
        </button>
      </div>
    </div>
  );
}

/**
 * What an install or uninstall did, as the CLI says it: a client reads its config only when it
 * starts, so without a restart nothing seems to happen; and where the previous file is kept.
 */
function ChangeOutcome(props: {
  clientName: string;
  action: Action;
  outcome: ClientChangeOutcome;
  onDismiss(): void;
}) {
  const { clientName, action, outcome } = props;
  const what = action === 'install' ? `Installed in ${clientName}.` : `Removed from ${clientName}.`;
  // The answer appears below the buttons: bring it into the window rather than leave it below the fold.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div className="notice" role="status" aria-label={`${clientName}: done`} ref={ref}>
      {outcome.changed ? (
        <>
          <p className="strong">{what}</p>
          <p>
            {`Quit ${clientName} completely and open it again: it reads its settings only when it starts.`}
          </p>
          {outcome.backupPath && (
            <p className="small">
              The previous file is kept as <span className="path">{outcome.backupPath}</span>
            </p>
          )}
        </>
      ) : (
        <p>
          {action === 'install'
            ? `${clientName} already had this entry: nothing was changed.`
            : `${clientName} had no Roam Companion entry: nothing was changed.`}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={props.onDismiss}>
          OK
        </button>
      </div>
    </div>
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
  focusRef(action: Action | 'toolsets'): (element: HTMLElement | null) => void;
  onChange(action: Action | 'toolsets'): void;
}) {
  const { client, busy, focusRef } = props;
  const overKey = client.transport === 'http' && client.state === 'installed';
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
      {client.state === 'installed' && client.canSwitchToHttp && (
        <button
          type="button"
          disabled={busy}
          ref={focusRef('install')}
          onClick={() => props.onChange('install')}
        >
          {`Switch ${client.name} to HTTP…`}
        </button>
      )}
      {client.state === 'installed' && !client.canSwitchToHttp && props.toolsetsChanged && (
        <button
          type="button"
          disabled={busy}
          ref={focusRef(overKey ? 'toolsets' : 'install')}
          onClick={() => props.onChange('toolsets')}
        >
          {/* Over HTTP nothing is previewed: the key changes, not a file. */}
          {overKey ? `Apply the toolsets to ${client.name}` : `Apply the toolsets to ${client.name}…`}
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
