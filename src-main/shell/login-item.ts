/** Launch at login (the app starts in the tray, no window). Electron offers it on macOS and Windows only. */
import type { App } from 'electron';

export function applyLaunchAtLogin(app: Pick<App, 'setLoginItemSettings'>, enabled: boolean): void {
  if (process.platform === 'linux') return;
  app.setLoginItemSettings({ openAtLogin: enabled });
}
