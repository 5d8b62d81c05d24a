/**
 * `roam-companion://graph/<type>/<name>` opens that graph in the manager. Arrives as 'open-url'
 * on macOS, and in the argv of a second instance on Windows and Linux. Parsing is the core's
 * (src-main/core/deep-link.ts) and never throws; a handler failure is logged, never thrown into
 * Electron's event loop.
 */
import type { App } from 'electron';
import { trayLogger } from '../core/tray-log.ts';
import { DEEP_LINK_SCHEME, deepLinkInArgv, graphIdFromDeepLink, loggableLink } from '../core/deep-link.ts';

export { DEEP_LINK_SCHEME, deepLinkInArgv, graphIdFromDeepLink };

/** Runs `open` for a link; anything it throws is logged and dropped. */
export function safely(open: (url: string) => void): (url: unknown) => void {
  return (url) => {
    try {
      if (typeof url === 'string') open(url);
    } catch (error) {
      trayLogger()(`ignored the link ${loggableLink(url)}: ${(error as Error)?.message ?? String(error)}`);
    }
  };
}

export function registerDeepLinks(
  app: Pick<App, 'setAsDefaultProtocolClient' | 'on'>,
  open: (url: string) => void,
): void {
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  const handle = safely(open);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    handle(url);
  });
}
