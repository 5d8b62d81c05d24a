/**
 * `roam-companion://graph/<type>/<name>` opens that graph in the manager. Arrives as 'open-url'
 * on macOS, and in the argv of a second instance on Windows and Linux.
 */
import type { App } from 'electron';
import { GRAPH_TYPES, graphId } from '../../src-shared/constants.ts';

export const DEEP_LINK_SCHEME = 'roam-companion';

/** The graph id a deep link points to, or undefined for anything else. */
export function graphIdFromDeepLink(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${DEEP_LINK_SCHEME}:` || parsed.hostname !== 'graph') return undefined;
  const [type, ...rest] = parsed.pathname.split('/').filter(Boolean);
  const name = decodeURIComponent(rest.join('/'));
  const graphType = GRAPH_TYPES.find((t) => t === type);
  if (!graphType || !name) return undefined;
  return graphId({ type: graphType, name });
}

export function deepLinkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.startsWith(`${DEEP_LINK_SCHEME}://`));
}

export function registerDeepLinks(
  app: Pick<App, 'setAsDefaultProtocolClient' | 'on'>,
  open: (url: string) => void,
): void {
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    open(url);
  });
}
