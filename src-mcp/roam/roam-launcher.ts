/**
 * Opening Roam Desktop by deep link when it is not running, then retrying (docs/mcp.md). The
 * opener is the platform's (`open`, `xdg-open`, `start`); ROAM_MCP_OPENER names another
 * command, ROAM_MCP_NO_LAUNCH=1 disables launching (tests, headless machines).
 */
import { spawn } from 'node:child_process';
import type { GraphType } from '../../src-shared/roam-config.ts';
import { withoutSecrets } from '../../src-shared/secret-free-env.ts';

export type Opener = (url: string) => void;

/** Roam's deep link to a graph: `roam://#/app/{graph}` (`#/offline/{graph}` for offline graphs). */
export function roamDeepLink(graph: { name: string; type: GraphType }): string {
  const section = graph.type === 'offline' ? 'offline' : 'app';
  return `roam://#/${section}/${encodeURIComponent(graph.name)}`;
}

/** The opener for this platform and environment, or undefined when launching is disabled. */
export function platformOpener(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Opener | undefined {
  if (env.ROAM_MCP_NO_LAUNCH === '1') return undefined;
  const [command, prefix] = env.ROAM_MCP_OPENER
    ? [env.ROAM_MCP_OPENER, []]
    : platform === 'darwin'
      ? ['open', []]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""']]
        : ['xdg-open', []];
  // The opener (and Roam, if it starts it) never sees ROAM_API_TOKEN or any other secret.
  const childEnv = withoutSecrets(env);
  return (url) => {
    // stdio ignored: the opener must never write to our stdout (JSON-RPC).
    const child = spawn(command, [...prefix, url], {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      env: childEnv,
    });
    child.on('error', () => {}); // no opener installed: the wait below ends in ROAM_NOT_RUNNING
    child.unref();
  };
}
