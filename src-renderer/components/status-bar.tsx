import type { HttpServerStatus } from '../../src-shared/ipc-contract.ts';
import { useActivity, useApp } from '../stores/stores-context.tsx';
import { ActionError, useActionError } from './shared/action-error.tsx';

/** The tray's HTTP server in a few words: its address without the scheme and path. */
function httpServerText(http: HttpServerStatus): string {
  switch (http.state) {
    case 'serving':
      return `HTTP: serving at ${new URL(http.url).host}`;
    case 'starting':
      return 'HTTP server starting…';
    case 'restarting':
      return `HTTP server ${http.why}; next try at ${new Date(http.retryAt).toLocaleTimeString()}`;
    case 'stopped':
      return 'HTTP server stopped';
  }
}

/** Every chat connected, HTTP ones said apart: "3 MCP sessions connected (2 over HTTP)". */
function sessionsText(total: number, http: number): string {
  const all = total === 1 ? '1 MCP session connected' : `${total} MCP sessions connected`;
  return http > 0 ? `${all} (${http === total ? '' : `${http} `}over HTTP)` : all;
}

/** Roam Desktop running or not (with a way to open it), its port, live MCP sessions, the HTTP server. */
export function StatusBar() {
  const status = useApp((s) => s.status);
  const load = useApp((s) => s.statusLoad);
  const openRoam = useApp((s) => s.openRoam);
  const retryHttpServer = useApp((s) => s.retryHttpServer);
  const today = useActivity((s) => s.feed.today);
  const bridgeLost = useApp((s) => s.bridgeLost);
  const { error, run } = useActionError();
  return (
    <footer className="status-bar" aria-label="Status">
      {load.phase === 'loading' && <span className="muted">Checking Roam Desktop…</span>}
      {load.phase === 'error' && <span className="error-text">Status unavailable: {load.message}</span>}
      {bridgeLost && (
        <span className="error-text grow" role="status">
          The preview server stopped answering: what this window shows may be out of date. Start the demo
          again (npm run demo) and open the address it prints.
        </span>
      )}
      {status && !bridgeLost && (
        <>
          {/* One layout at every width and in every state: Roam on the first line, the counts on the second. */}
          <div className="status-line">
            <span className={status.roam.running ? 'dot ok' : 'dot off'} aria-hidden="true" />
            <span className="grow" role="status">
              {status.roam.running
                ? `Roam Desktop running · port ${status.roam.port}`
                : 'Roam Desktop is not running'}
            </span>
            {!status.roam.running && (
              <button type="button" onClick={() => void run(openRoam)}>
                Open Roam Desktop
              </button>
            )}
          </div>
          <div className="status-line">
            <span>{sessionsText(status.mcpSessions, status.httpChats ?? 0)}</span>
            {status.http && (
              <span className={status.http.state === 'serving' ? undefined : 'warning-text'}>
                {httpServerText(status.http)}
              </span>
            )}
            {status.http?.state === 'restarting' && (
              <button type="button" onClick={() => void run(retryHttpServer)}>
                Try now
              </button>
            )}
            <span>{today === 1 ? '1 agent change today' : `${today} agent changes today`}</span>
          </div>
        </>
      )}
      {status?.storage?.warning && <span className="warning-text small">{status.storage.warning}</span>}
      <ActionError error={error} inline />
    </footer>
  );
}
