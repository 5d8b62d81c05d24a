/** Roam Desktop, its port file, and each configured graph's token and guidelines. */
import { existsSync } from 'node:fs';
import { levelsCovered } from '../../src-shared/token-grant.ts';
import { LocalApiClient } from '../../src-shared/local-api/local-api-client.ts';
import { LocalApiError } from '../../src-shared/local-api/local-api-error.ts';
import { portFilePath, readPort } from '../../src-shared/local-api/port-file.ts';
import { loadConfig } from '../config/load-config.ts';
import type { ConfiguredGraph } from '../../src-shared/roam-config.ts';
import type { Check, DoctorOptions } from './check.ts';

const timeout = (options: DoctorOptions) => AbortSignal.timeout(options.timeoutMs ?? 5000);

/** Whether Roam Desktop answers on the port its file names. */
export async function roamCheck(options: DoctorOptions): Promise<{ check: Check; running: boolean }> {
  const file = portFilePath(options.home);
  const port = await readPort(options.home);
  const where = existsSync(file)
    ? `port ${port} (from ${file})`
    : `port ${port} (Roam's default: ${file} is missing)`;
  const client = new LocalApiClient({ home: options.home });
  try {
    const open = await client.graphsOpen({ signal: timeout(options) });
    return {
      running: true,
      check: {
        section: 'roam',
        name: 'Roam Desktop',
        status: 'ok',
        detail: `answers on ${where}; ${open.length} graph(s) open`,
      },
    };
  } catch (error) {
    const notRunning = error instanceof LocalApiError && error.kind === 'not-running';
    return {
      running: false,
      check: {
        section: 'roam',
        name: 'Roam Desktop',
        status: 'fail',
        detail: notRunning
          ? `nothing answers on ${where}`
          : `did not answer on ${where}: ${(error as Error).message}`,
        fix: 'Open Roam Desktop (its Local API starts with it), then run roam-mcp doctor again.',
      },
    };
  }
}

/** Each graph of the config: its token accepted and wide enough for the chosen level, its guidelines readable. */
export async function graphChecks(options: DoctorOptions, roamRunning: boolean): Promise<Check[]> {
  const config = await loadConfig({
    ...(options.configPath ? { configPath: options.configPath } : {}),
    env: options.env,
    home: options.home,
  });
  const source =
    config.source.kind === 'file'
      ? config.source.path
      : config.source.kind === 'env'
        ? 'ROAM_GRAPH and ROAM_API_TOKEN'
        : 'no config file';
  const checks: Check[] = config.errors.map((error) => ({
    section: 'graphs',
    name: 'config',
    status: 'fail' as const,
    detail: error,
    fix: 'Fix the config file (docs/mcp.md, Configuration), or run roam-mcp connect.',
  }));
  if (config.graphs.length === 0 && config.errors.length === 0) {
    checks.push({
      section: 'graphs',
      name: 'config',
      status: 'warn',
      detail: `no graph configured (${source})`,
      fix: 'Run roam-mcp connect to add a graph (Roam Companion keeps its graphs in its own store).',
    });
  }
  const client = new LocalApiClient({ home: options.home });
  for (const graph of config.graphs)
    checks.push(await graphCheck(graph, { client, options, source, roamRunning }));
  return checks;
}

/** One graph: its token accepted by Roam and wide enough for the chosen level, its guidelines readable. */
async function graphCheck(
  graph: ConfiguredGraph,
  {
    client,
    options,
    source,
    roamRunning,
  }: { client: LocalApiClient; options: DoctorOptions; source: string; roamRunning: boolean },
): Promise<Check> {
  const name = `graph ${graph.nickname}${graph.nickname === graph.name ? '' : ` (${graph.name})`}`;
  const chosen = graph.accessLevel ?? 'full';
  const result = (status: Check['status'], detail: string, fix?: string): Check => ({
    section: 'graphs',
    name,
    status,
    detail,
    ...(fix ? { fix } : {}),
  });
  if (!graph.token) {
    return result(
      'warn',
      `no token yet (${source})`,
      `Run roam-mcp connect --graph ${graph.name} (or let an agent select it: Roam asks you then).`,
    );
  }
  if (!roamRunning) {
    return result('skip', 'not checked: Roam Desktop is not answering');
  }
  const authenticated = { name: graph.name, type: graph.type, token: graph.token };
  const newToken = `Run roam-mcp connect --graph ${graph.name} to get a new token (Roam asks you to approve it).`;
  const info = await client
    .tokenInfo(authenticated, { signal: timeout(options) })
    .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  if (info instanceof Error) {
    return result('fail', `Roam did not answer: ${info.message}`);
  }
  if (info.status === 'invalid') {
    return result('fail', 'Roam refuses its token (revoked?)', newToken);
  }
  const granted = info.status === 'valid' ? info.accessLevel : graph.grantedAccessLevel;
  const wideEnough = granted === undefined || levelsCovered(granted).includes(chosen);
  const guidelines = await client
    .call(authenticated, 'data.ai.getGraphGuidelines', [], { signal: timeout(options) })
    .then(
      () => undefined,
      (e: unknown) => e as Error,
    );
  if (guidelines instanceof LocalApiError && guidelines.kind === 'auth') {
    return result('fail', 'Roam refuses its token (revoked?)', newToken);
  }
  const grant = granted ? `token grants ${granted}` : 'token accepted (its grant not known)';
  return {
    section: 'graphs',
    name,
    status: !wideEnough || guidelines ? 'warn' : 'ok',
    detail: [
      `${grant}, chosen level ${chosen}`,
      ...(wideEnough ? [] : [`the chosen level is wider than the token allows`]),
      guidelines ? `its guidelines could not be read: ${guidelines.message}` : 'guidelines readable',
    ].join('; '),
    ...(!wideEnough
      ? { fix: newToken }
      : guidelines
        ? { fix: 'Open the graph in Roam Desktop and check it loads.' }
        : {}),
  };
}
