import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { RemoteView } from '../../../src-shared/ipc-contract.ts';
import { useRemote } from '../../stores/stores-context.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { ConfirmDialog } from '../shared/confirm-dialog.tsx';
import { LoadGate } from '../shared/load-gate.tsx';
import { RemoteConnections } from './remote-connections.tsx';
import { RemoteSignIn } from './remote-sign-in.tsx';

/**
 * Settings > Remote access (docs/remote.md): whether claude.ai, Claude's apps and ChatGPT can
 * reach this computer through the person's tunnel, and from where; the sign-ins waiting for an
 * answer here; the connections, each revoked in one click. One switch turns it all off.
 */
export function RemoteAccessView() {
  const remote = useRemote((s) => s.remote);
  const load = useRemote((s) => s.load);
  const refresh = useRemote((s) => s.refresh);
  const showing = useRemote((s) => s.showing);
  const shown = useRemote((s) => s.shown);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // Asked for by the indicator: below the other settings, so it is scrolled to and focused.
  useEffect(() => {
    if (!showing) return;
    heading.current?.scrollIntoView?.({ block: 'start' });
    heading.current?.focus();
    shown();
  }, [showing, shown]);
  return (
    <section className="view remote-access" aria-labelledby="remote-heading">
      <h2 id="remote-heading" ref={heading} tabIndex={-1}>
        Remote access
      </h2>
      <LoadGate state={load} what="remote access" onRetry={() => void refresh()}>
        {remote && (
          <>
            <RemoteSwitch remote={remote} />
            {remote.on && <WaitingSignIns remote={remote} />}
            <RemoteConnections connections={remote.connections} />
          </>
        )}
      </LoadGate>
    </section>
  );
}

function RemoteSwitch({ remote }: { remote: RemoteView }) {
  const turnOn = useRemote((s) => s.turnOn);
  const turnOff = useRemote((s) => s.turnOff);
  const { error, setError, busy, run } = useActionError();
  const urlId = useId();
  const [url, setUrl] = useState(remote.publicUrl ?? '');
  const [confirming, setConfirming] = useState(false);
  const on = () => {
    if (!url.trim())
      setError("Type your tunnel's public https address first, e.g. https://roam.example.ts.net.");
    else void run(() => turnOn(url.trim()));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    on();
  };
  const live = remote.connections.length;
  return (
    <form className="card form" onSubmit={submit} aria-label="Remote access switch">
      <label className="switch-field">
        <span className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-label="Remote access"
            checked={remote.on}
            disabled={busy}
            onChange={(event) => (event.target.checked ? on() : setConfirming(true))}
          />
          <span aria-hidden="true" className="slider" />
        </span>
        <span className="strong">{remote.on ? 'On' : 'Off'}</span>
      </label>
      {remote.on ? (
        <RemoteWhere remote={remote} live={live} />
      ) : (
        <>
          <p className="small">
            Let claude.ai, Claude&apos;s phone apps and ChatGPT reach this computer through a tunnel you run
            (Tailscale Funnel, Cloudflare Tunnel or ngrok). Each connection is approved here, by you.
          </p>
          <div className="field">
            <label htmlFor={urlId}>Your tunnel&apos;s public address (https)</label>
            <input
              id={urlId}
              type="url"
              inputMode="url"
              placeholder="https://roam.example.ts.net"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
            />
          </div>
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title="Turn off remote access?"
          body={`${live === 1 ? 'The connection ends' : live ? `All ${live} connections end` : 'Nothing is connected now'}, and any sign-in waiting here is refused. Each chat app must then be approved again.`}
          confirmLabel="Turn off"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(turnOff);
          }}
        />
      )}
      <ActionError error={error} />
    </form>
  );
}

/** From where, to where, and what is live: plainly, as long as it is on. */
function RemoteWhere({ remote, live }: { remote: RemoteView; live: number }) {
  return (
    <div>
      <p>
        Reachable from anywhere at <span className="strong remote-url">{remote.publicUrl}</span>
      </p>
      <p className="small">
        Point your tunnel at <code>http://127.0.0.1:{remote.localPort}</code>
        {remote.listening ? (
          <span className="ok-text"> (answering)</span>
        ) : (
          <span className="warning-text">
            {' '}
            (not answering yet: Roam Companion&apos;s HTTP server is starting, or not running)
          </span>
        )}
      </p>
      <p className="small">
        {live === 0 ? 'No chat app is connected.' : `${live} connection${live === 1 ? '' : 's'} live.`}{' '}
        {remote.waiting.length > 0 &&
          `${remote.waiting.length} sign-in${remote.waiting.length === 1 ? ' waits' : 's wait'} for you below.`}
      </p>
    </div>
  );
}

function WaitingSignIns({ remote }: { remote: RemoteView }) {
  if (remote.waiting.length === 0)
    return (
      <p className="muted small">
        No sign-in is waiting. When you add Roam Companion in a chat app with the address above, its sign-in
        shows here with a code.
      </p>
    );
  return (
    <section aria-labelledby="remote-waiting-heading">
      <h3 id="remote-waiting-heading">Waiting for your answer</h3>
      <ul className="list" aria-label="Sign-ins waiting">
        {remote.waiting.map((request) => (
          <RemoteSignIn key={request.id} request={request} />
        ))}
      </ul>
    </section>
  );
}
