/**
 * The tray app: one instance, no dock icon, the core over electron-store and safeStorage, the
 * IPC bridge, the tray menu and the manager window opened on demand.
 */
import { pathToFileURL } from 'node:url';
import { app, clipboard, ipcMain, safeStorage, shell, type BrowserWindow } from 'electron';
import ElectronStore from 'electron-store';
import type { AppStatus, GraphView } from '../../src-shared/ipc-contract.ts';
import { createTrayCore, type TrayCore } from '../core/tray-core.ts';
import { forkSpawner } from '../core/clients/mcp-launcher.ts';
import { trayLogger } from '../core/tray-log.ts';
import { HTTP_DEFAULT_PORT } from '../../src-shared/constants.ts';
import { STORE_FILE_MODE, STORE_NAME } from '../core/store/store-file.ts';
import { appPaths } from './app-paths.ts';
import { loggableLink, parseDeepLink } from '../core/deep-link.ts';
import { deepLinkInArgv, registerDeepLinks, safely } from './deep-links.ts';
import { applyLaunchAtLogin } from './login-item.ts';
import { createManagerWindow } from './main-window.ts';
import { forwardEvents, registerIpcHandlers } from './ipc-registration.ts';
import { createSafeStorageSecretBox } from './safe-storage-secret-box.ts';
import { acquireSingleInstance } from './single-instance.ts';
import { noticeWaitingChanges } from './approval-notices.ts';
import { SystemTray } from './system-tray.ts';

export async function runTrayApp(argv: readonly string[]): Promise<void> {
  let coreReady = false;
  let pendingGraph = linkedGraph(deepLinkInArgv(argv));
  const paths = appPaths(app);
  const manager = managerWindow(paths);
  const openManager = manager.open;
  const openLink = safely((url: string) => {
    const graphId = linkedGraph(url);
    if (!coreReady) pendingGraph = graphId;
    else openManager(graphId);
  });

  if (!acquireSingleInstance(app, (secondArgv) => openLink(deepLinkInArgv(secondArgv ?? []) ?? ''))) {
    app.quit();
    return;
  }
  registerDeepLinks(app, openLink);
  app.dock?.hide();
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => {});
  await app.whenReady();

  const trayCore = await startCore(paths);
  coreReady = true;
  registerIpcHandlers(ipcMain, trayCore, pathToFileURL(paths.rendererIndex).href);
  forwardEvents(trayCore, manager.webContents);

  const { tray, currentGraphs } = await startTray(trayCore, paths, {
    openManager,
    openActivity: () => manager.open(undefined, ['activity:show', {}]),
  });
  noticeWaitingChanges(trayCore, () => manager.open(undefined, ['proposals:show', {}]));
  const settings = await trayCore.handlers['settings:get'](undefined);
  applyLaunchAtLogin(app, settings.launchAtLogin);
  const firstRun =
    currentGraphs().length === 0 || (await trayCore.handlers['import:check'](undefined)).available;
  if (pendingGraph || firstRun) openManager(pendingGraph);

  app.on('before-quit', () => {
    tray.destroy();
    void trayCore.close();
  });
}

type Paths = ReturnType<typeof appPaths>;

/** The graph a deep link names; a link that names none is logged (the manager opens as it is). */
function linkedGraph(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const link = parseDeepLink(url);
  if ('graphId' in link) return link.graphId;
  trayLogger()(`ignored the link ${loggableLink(url)} (${link.ignored}).`);
  return undefined;
}

/** The manager window: created on demand, then brought forward (and pointed at a graph or a view). */
function managerWindow(paths: Paths) {
  let window: BrowserWindow | undefined;
  const open = (
    graphId?: string,
    show?: [channel: 'activity:show' | 'proposals:show', payload: Record<string, never>],
  ) => {
    const message: [string, unknown] | undefined = graphId ? ['app:navigate', { graphId }] : show;
    if (!window || window.isDestroyed()) {
      window = createManagerWindow(paths);
      window.on('closed', () => (window = undefined));
      if (message) {
        // The renderer subscribes once loaded; navigate then.
        window.webContents.once('did-finish-load', () => window?.webContents.send(...message));
      }
    } else if (message) {
      window.webContents.send(...message);
    }
    window.show();
    window.focus();
  };
  return { open, webContents: () => (window && !window.isDestroyed() ? window.webContents : undefined) };
}

/** The core over electron-store and safeStorage. */
async function startCore(paths: Paths): Promise<TrayCore> {
  const secretBox = await createSafeStorageSecretBox(safeStorage);
  if (secretBox.backend === 'basic_text') {
    trayLogger()('no system keyring; tokens are only obfuscated (safeStorage basic_text).');
  }
  const store = new ElectronStore<Record<string, unknown>>({
    cwd: paths.storeDir,
    name: STORE_NAME,
    configFileMode: STORE_FILE_MODE,
  });
  return createTrayCore({
    home: app.getPath('home'),
    storeDir: paths.storeDir,
    secretBox,
    mcpServerPath: paths.mcpServerPath,
    launcher: paths.launcher,
    store,
    openExternal: (url) => shell.openExternal(url),
    // Commands holding a key are copied here, in main: the renderer never sees a key.
    writeClipboard: (text) => clipboard.writeText(text),
    setLaunchAtLogin: (enabled) => applyLaunchAtLogin(app, enabled),
    // Every HTTP client is served while the tray runs (docs/clients.md, "Over HTTP").
    httpHub: {
      port: HTTP_DEFAULT_PORT,
      spawn: forkSpawner({ stdio: 'ignore', extraEnv: { ELECTRON_RUN_AS_NODE: '1' } }),
    },
  });
}

/** The tray menu, kept in step with the graphs, Roam's status and today's agent changes. */
async function startTray(
  trayCore: TrayCore,
  paths: Paths,
  open: { openManager: (graphId?: string) => void; openActivity: () => void },
) {
  const { openManager } = open;
  let graphs: GraphView[] = [];
  let status: AppStatus | undefined;
  let today = 0;
  const tray = new SystemTray(paths.assets, {
    ...open,
    requestToken: (id) => void trayCore.handlers['tokens:request']({ id }).catch(() => openManager(id)),
    openRoam: () => void trayCore.handlers['roam:open'](undefined).catch(() => {}),
    connectClient: () => openManager(),
    retryHttpServer: () => trayCore.retryHttpServer(),
    quit: () => app.quit(),
  });
  const refresh = () => tray.update(graphs, status, today);
  trayCore.on('graphs:changed', (next) => ((graphs = next), refresh()));
  trayCore.on('status:changed', (next) => ((status = next), refresh()));
  trayCore.on('activity:changed', (feed) => ((today = feed.today), refresh()));
  graphs = await trayCore.handlers['graphs:list'](undefined).catch(() => []);
  status = await trayCore.handlers['status:get'](undefined).catch(() => undefined);
  today = (await trayCore.handlers['activity:list'](undefined).catch(() => undefined))?.today ?? 0;
  refresh();

  return { tray, currentGraphs: () => graphs };
}
