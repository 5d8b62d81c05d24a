/**
 * The menu-bar / tray icon and its menu: each graph with its token state and access level,
 * Roam Desktop's and the HTTP server's state, and the actions (manager, request a token, start the
 * HTTP server again, connect a client, quit).
 * The template is built by a pure function so it can be tested without Electron.
 */
import path from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { AppStatus, GraphView, HttpServerStatus } from '../../src-shared/ipc-contract.ts';

export interface TrayActions {
  openManager(graphId?: string): void;
  /** Opens the manager on the Activity view. */
  openActivity(): void;
  requestToken(graphId: string): void;
  openRoam(): void;
  connectClient(): void;
  /** Starts the HTTP server now instead of at its next try. */
  retryHttpServer(): void;
  quit(): void;
}

const TOKEN_LABEL: Record<GraphView['token']['state'], string> = {
  ok: 'token ok',
  missing: 'no token',
  revoked: 'token revoked',
  blocked: 'blocked in Roam',
  waiting: 'waiting for approval in Roam…',
};

/** The HTTP server every HTTP client uses: where it serves, or why not and a way to try again now. */
function httpServerItem(http: HttpServerStatus, actions: TrayActions): MenuItemConstructorOptions {
  switch (http.state) {
    case 'serving':
      return { label: `HTTP server: serving at ${new URL(http.url).host}`, enabled: false };
    case 'starting':
      return { label: 'HTTP server: starting…', enabled: false };
    case 'restarting':
      return {
        label: `HTTP server: restarting, next try at ${new Date(http.retryAt).toLocaleTimeString()}`,
        submenu: [
          { label: `It ${http.why}`, enabled: false },
          { label: 'Try now', click: actions.retryHttpServer },
        ],
      };
    case 'stopped':
      // Only while the tray quits: nothing would start it again.
      return { label: 'HTTP server: stopped', enabled: false };
  }
}

export function trayMenuTemplate(
  graphs: readonly GraphView[],
  status: AppStatus | undefined,
  actions: TrayActions,
  agentChangesToday = 0,
): MenuItemConstructorOptions[] {
  const roam = status?.roam;
  const roamLine: MenuItemConstructorOptions = roam?.running
    ? { label: `Roam Desktop: running (port ${roam.port})`, enabled: false }
    : { label: 'Roam Desktop is not running — Open Roam', click: actions.openRoam };
  const graphItems: MenuItemConstructorOptions[] = graphs.length
    ? graphs.map((g) => ({
        label: `${g.nickname}${g.enabled ? '' : ' (disabled)'} — ${TOKEN_LABEL[g.token.state]}, ${g.accessLevel}`,
        submenu: [
          { label: 'Show in manager', click: () => actions.openManager(g.id) },
          {
            label: g.token.state === 'ok' ? 'Request a new token' : 'Request token',
            enabled: g.token.state !== 'waiting' && g.token.state !== 'blocked' && !!roam?.running,
            click: () => actions.requestToken(g.id),
          },
        ],
      }))
    : [{ label: 'No graphs yet', enabled: false }];
  const sessions = status?.mcpSessions ?? 0;
  return [
    roamLine,
    { label: `${sessions} AI client session${sessions === 1 ? '' : 's'} connected`, enabled: false },
    ...(status?.http ? [httpServerItem(status.http, actions)] : []),
    ...(status?.storage?.warning ? [{ label: `⚠ ${status.storage.warning}`, enabled: false }] : []),
    { type: 'separator' },
    ...graphItems,
    { type: 'separator' },
    {
      label: `Agent activity: ${agentChangesToday} change${agentChangesToday === 1 ? '' : 's'} today…`,
      click: actions.openActivity,
    },
    { label: 'Open Roam Companion…', click: () => actions.openManager() },
    { label: 'Connect an AI client…', click: actions.connectClient },
    { type: 'separator' },
    { label: 'Quit Roam Companion', click: actions.quit },
  ];
}

/** Template images on macOS (the menu bar tints them); a coloured icon elsewhere. */
export function trayIconPath(assetsDir: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(assetsDir, platform === 'darwin' ? 'iconTemplate.png' : 'tray-icon.png');
}

export class SystemTray {
  private readonly tray: Tray;

  constructor(
    assetsDir: string,
    private readonly actions: TrayActions,
  ) {
    const image = nativeImage.createFromPath(trayIconPath(assetsDir));
    if (process.platform === 'darwin') image.setTemplateImage(true);
    this.tray = new Tray(image);
    this.tray.setToolTip('Roam Companion');
  }

  update(graphs: readonly GraphView[], status: AppStatus | undefined, agentChangesToday = 0): void {
    this.tray.setContextMenu(
      Menu.buildFromTemplate(trayMenuTemplate(graphs, status, this.actions, agentChangesToday)),
    );
  }

  destroy(): void {
    this.tray.destroy();
  }
}
