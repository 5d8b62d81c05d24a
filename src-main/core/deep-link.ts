/**
 * `roam-companion://graph/<type>/<name>` deep links (docs/tray.md): any web page can send one, so
 * parsing never throws. What does not name a graph comes back as `ignored` with a reason the shell
 * logs; the link itself is only ever logged cut short and without control characters.
 */
import { GRAPH_TYPES, graphId } from '../../src-shared/constants.ts';

export const DEEP_LINK_SCHEME = 'roam-companion';
/** Longer than any graph link; nothing longer is parsed. */
const MAX_LINK_LENGTH = 2048;

export type DeepLink = { graphId: string } | { ignored: string };

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

export function parseDeepLink(url: unknown): DeepLink {
  if (typeof url !== 'string') return { ignored: 'not a string' };
  if (url.length > MAX_LINK_LENGTH) return { ignored: `longer than ${MAX_LINK_LENGTH} characters` };
  const link = parsed(url);
  if (!link) return { ignored: 'not a URL' };
  if (link.protocol !== `${DEEP_LINK_SCHEME}:`) return { ignored: `not a ${DEEP_LINK_SCHEME}:// link` };
  if (link.hostname !== 'graph') return { ignored: 'not a graph link' };
  const [type, ...rest] = link.pathname.split('/').filter(Boolean);
  const graphType = GRAPH_TYPES.find((t) => t === type);
  if (!graphType) return { ignored: `unknown graph type (use ${GRAPH_TYPES.join(' or ')})` };
  const name = decoded(rest.join('/'));
  if (name === undefined) return { ignored: 'the graph name is not valid percent-encoding' };
  // eslint-disable-next-line no-control-regex
  if (!name.trim() || /[\u0000-\u001f\u007f]/.test(name)) return { ignored: 'no usable graph name' };
  return { graphId: graphId({ type: graphType, name }) };
}

/** The graph id a link points to, or undefined for anything else. */
export function graphIdFromDeepLink(url: unknown): string | undefined {
  const link = parseDeepLink(url);
  return 'graphId' in link ? link.graphId : undefined;
}

/** The first deep link among a launch's arguments. */
export function deepLinkInArgv(argv: readonly unknown[]): string | undefined {
  return argv.find(
    (arg): arg is string => typeof arg === 'string' && arg.startsWith(`${DEEP_LINK_SCHEME}://`),
  );
}

/** A link as it may appear in a log line: short, printable. */
export function loggableLink(url: unknown): string {
  const text = typeof url === 'string' ? url : String(typeof url);
  // eslint-disable-next-line no-control-regex
  const printable = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return printable.length > 120 ? `${printable.slice(0, 120)}…` : printable;
}
