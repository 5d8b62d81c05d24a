import { useState } from 'react';
import { describeError } from '../bridge/bridge-error.ts';
import { useApp } from '../stores/stores-context.tsx';

/** Roam Desktop running or not (with a way to open it), its port, and live MCP sessions. */
export function StatusBar() {
  const status = useApp((s) => s.status);
  const load = useApp((s) => s.statusLoad);
  const openRoam = useApp((s) => s.openRoam);
  const [error, setError] = useState<string | null>(null);
  return (
    <footer className="status-bar" aria-label="Status">
      {load.phase === 'loading' && <span className="muted">Checking Roam Desktop…</span>}
      {load.phase === 'error' && <span className="error-text">Status unavailable: {load.message}</span>}
      {status && (
        <>
          <span className={status.roam.running ? 'dot ok' : 'dot off'} aria-hidden="true" />
          <span className="grow">
            {status.roam.running
              ? `Roam Desktop running · port ${status.roam.port}`
              : 'Roam Desktop is not running'}
          </span>
          {!status.roam.running && (
            <button
              type="button"
              onClick={() => {
                setError(null);
                openRoam().catch((failure: unknown) => setError(describeError(failure)));
              }}
            >
              Open Roam Desktop
            </button>
          )}
          <span>
            {status.mcpSessions === 1 ? '1 MCP session' : `${status.mcpSessions} MCP sessions`} connected
          </span>
        </>
      )}
      {status?.storage?.warning && <span className="warning-text small">{status.storage.warning}</span>}
      {error && (
        <span role="alert" className="error-text">
          {error}
        </span>
      )}
    </footer>
  );
}
