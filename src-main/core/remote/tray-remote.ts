/**
 * Remote access from the tray (docs/tray.md, "Remote access"): the switch, the sign-ins waiting
 * at this machine and the connections, through src-mcp/remote's public entry only. The waiting
 * list reaches the window as `remote:changed` whenever any process changes the data folder's
 * remote state (the serving child opens sign-ins there), and again when the first one expires.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  RemoteAccess,
  RemoteStoreError,
  decisionOf,
  parsePublicUrl,
  type ConnectionInfo,
  type GraphChoice,
  type RequestInfo,
} from '../../../src-mcp/remote/index.ts';
import { graphId, type AccessLevel } from '../../../src-shared/constants.ts';
import type {
  RemoteConnectionView,
  RemoteRequestView,
  RemoteView,
} from '../../../src-shared/ipc-contract.ts';
import { CoreError } from '../core-error.ts';
import { watchStoreFile } from '../store/store-watch.ts';
import { freeLoopbackPort, remoteSetupFile, type RemoteSetup, type RemoteSetupFile } from './remote-setup.ts';

export interface TrayRemoteDeps {
  storeDir: string;
  /** The data folder the HTTP server child uses; default the machine's. */
  dataDir?: string;
  home: string;
  env?: Record<string, string | undefined>;
  changed(view: RemoteView): void;
  /** The tray's graphs: what an approval may choose among, and how a connection's are named. */
  graphs?(): readonly GraphChoice[];
  /** Starts the tray's HTTP server again, so it serves (or stops serving) the tunnel's listener. */
  restartServer?(): Promise<void>;
}

export interface TrayRemote {
  view(): Promise<RemoteView>;
  turnOn(publicUrl: string): Promise<RemoteView>;
  turnOff(): Promise<RemoteView>;
  approve(
    id: string,
    choice: { level?: AccessLevel; toolsets?: string[]; graphs?: string[] },
  ): Promise<RemoteView>;
  deny(id: string): Promise<RemoteView>;
  revoke(id: string): Promise<RemoteView>;
  /** What `roam-mcp serve --http` is started with besides its port: the listener's, when on. */
  serveArgs(): Promise<string[]>;
  close(): void;
}

const requestView = (r: RequestInfo): RemoteRequestView => ({
  id: r.id,
  code: r.code,
  clientName: r.clientName,
  verified: r.verified,
  redirectHost: r.redirectHost,
  scopes: r.scopes,
  expiresAt: r.expiresAt,
});

const connectionView = (c: ConnectionInfo, graphs: readonly GraphChoice[]): RemoteConnectionView => ({
  id: c.id,
  clientName: c.clientName,
  verified: c.verified,
  redirectHost: c.redirectHost,
  ...(c.level ? { level: c.level } : {}),
  ...(c.toolsets ? { toolsets: c.toolsets } : {}),
  ...(c.graphs
    ? { graphs: c.graphs.map((id) => graphs.find((g) => graphId(g) === id)?.nickname ?? id) }
    : {}),
  createdAt: c.createdAt,
  ...(c.usedAt ? { usedAt: c.usedAt } : {}),
});

/** The server's words are the CLI's; the tray names the field the person typed in. */
const inTrayWords = (message: string) => message.replace(/^--public-url( must| takes)?/, 'The public URL$1');

const argsOf = (s: RemoteSetup) =>
  s.on && s.publicUrl && s.port ? ['--public-url', s.publicUrl, '--remote-port', String(s.port)] : [];

/** What the window shows: the tray's setup, the data folder's switch, what waits, the connections. */
async function remoteView(
  access: RemoteAccess,
  setup: RemoteSetupFile,
  graphs: () => readonly GraphChoice[],
): Promise<RemoteView> {
  const [s, status, waiting, connections] = await Promise.all([
    setup.read(),
    access.status(),
    access.requests(),
    access.connections(),
  ]);
  const on = s.on && status.enabled;
  return {
    on,
    ...(s.publicUrl ? { publicUrl: s.publicUrl } : {}),
    ...(s.port ? { localPort: s.port } : {}),
    // The running server says where it serves (src-mcp/remote: while its process lives).
    listening:
      on && status.served?.publicUrl === s.publicUrl && status.served?.local === `http://127.0.0.1:${s.port}`,
    waiting: on ? waiting.map(requestView) : [],
    connections: connections.map((c) => connectionView(c, graphs())),
  };
}

/**
 * The view, and `changed` with it whenever any process changes the remote state, or the first
 * waiting sign-in expires (that changes no file). Nothing is watched until the view is first asked for.
 */
function liveRemoteView(
  access: RemoteAccess,
  setup: RemoteSetupFile,
  graphs: () => readonly GraphChoice[],
  changed: (view: RemoteView) => void,
): { view(): Promise<RemoteView>; close(): void } {
  let watching: Promise<(() => void) | undefined> | undefined;
  let expiry: NodeJS.Timeout | undefined;
  let closed = false;
  const expireLater = (view: RemoteView) => {
    clearTimeout(expiry);
    const next = Math.min(...view.waiting.map((r) => Date.parse(r.expiresAt)));
    if (!Number.isFinite(next) || closed) return;
    expiry = setTimeout(publish, Math.max(0, next - Date.now()) + 50);
    expiry.unref();
  };
  const publish = () =>
    void remoteView(access, setup, graphs).then(
      (view) => {
        if (closed) return;
        changed(view);
        expireLater(view);
      },
      () => {}, // the next remote:get says what is wrong
    );
  return {
    async view() {
      watching ??= mkdir(path.dirname(access.file), { recursive: true, mode: 0o700 })
        .then(() => (closed ? undefined : watchStoreFile(access.file, publish, 50)))
        .catch(() => undefined);
      await watching;
      const shown = await remoteView(access, setup, graphs);
      expireLater(shown);
      return shown;
    },
    close() {
      closed = true;
      clearTimeout(expiry);
      void watching?.then((stop) => stop?.());
    },
  };
}

/** A sign-in no longer waiting, or one answered already: the server's words say which. */
async function answering(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RemoteStoreError) throw new CoreError('NOT_FOUND', error.message);
    throw error;
  }
}

export function startTrayRemote(deps: TrayRemoteDeps): TrayRemote {
  const access = new RemoteAccess({
    ...(deps.dataDir ? { dir: deps.dataDir } : {}),
    home: deps.home,
    ...(deps.env ? { env: deps.env as NodeJS.ProcessEnv } : {}),
  });
  const setup = remoteSetupFile(deps.storeDir);
  const graphs = () => deps.graphs?.() ?? [];
  const live = liveRemoteView(access, setup, graphs, deps.changed);
  /** The arguments the running child was started with. */
  let served: string | undefined;
  const restartIfChanged = async () => {
    if (JSON.stringify(argsOf(await setup.read())) !== served) await deps.restartServer?.();
  };

  return {
    view: live.view,
    async turnOn(publicUrl) {
      const parsed = parsePublicUrl(publicUrl);
      if ('error' in parsed) throw new CoreError('VALIDATION', inTrayWords(parsed.error));
      const port = (await setup.read()).port ?? (await freeLoopbackPort());
      await setup.write({ on: true, publicUrl: parsed.url.origin, port });
      await access.setEnabled(true);
      await restartIfChanged();
      return live.view();
    },
    async turnOff() {
      await setup.write({ ...(await setup.read()), on: false });
      // Off ends everything: what waits is refused, every connection must be approved again.
      await access.setEnabled(false);
      for (const request of await access.requests()) await access.deny(request.id).catch(() => {});
      for (const connection of await access.connections()) await access.revoke(connection.id);
      await restartIfChanged();
      return live.view();
    },
    async approve(id, choice) {
      const tools = choice.toolsets?.join(',');
      let decision;
      try {
        decision = decisionOf(
          {
            ...(choice.level ? { level: choice.level } : {}),
            ...(tools ? { tools } : {}),
            ...(choice.graphs ? { graphIds: choice.graphs } : {}),
          },
          graphs(),
        );
      } catch (error) {
        if (error instanceof RemoteStoreError) throw new CoreError('VALIDATION', error.message);
        throw error;
      }
      await answering(() => access.approve(id, decision));
      return live.view();
    },
    async deny(id) {
      await answering(() => access.deny(id));
      return live.view();
    },
    async revoke(id) {
      if (!(await access.revoke(id)))
        throw new CoreError('NOT_FOUND', 'That connection is gone already. The list shows those left.');
      return live.view();
    },
    async serveArgs() {
      const args = argsOf(await setup.read());
      served = JSON.stringify(args);
      return args;
    },
    close: live.close,
  };
}
