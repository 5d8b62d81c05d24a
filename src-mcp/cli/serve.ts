/**
 * `roam-mcp serve --http [--port N] [--host 127.0.0.1]` plus the server's own options (`--config`,
 * `--read-only`, `--tools`, `--index-staleness-ms`, `--upload-folder`): one process serving every
 * local MCP client over HTTP (src-mcp/http/). The front's limits can be lowered for tests and
 * benches with the ROAM_MCP_HTTP_* variables of LIMITS_ENV.
 */
import { parseArgs } from 'node:util';
import { parseStaleness } from '../navigation/index-staleness.ts';
import { DEFAULT_PORT, LOOPBACK_HOSTS, notLoopback } from '../http/address.ts';
import type { HubLimits } from '../http/limits.ts';
import { parsePublicUrl, remoteSettings, type RemoteSettings } from '../remote/remote-config.ts';

const options = {
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  'read-only': { type: 'boolean' },
  tools: { type: 'string' },
  'index-staleness-ms': { type: 'string' },
  'upload-folder': { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  'remote-port': { type: 'string' },
  'remote-token-days': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const USAGE = `Usage: roam-mcp serve --http [--port N] [--host 127.0.0.1] [--config PATH] [--read-only] [--tools SETS]
                      [--index-staleness-ms N] [--upload-folder PATH]...
                      [--public-url https://HOST --remote-port N [--remote-token-days D]]
Serves every local MCP client over HTTP at http://127.0.0.1:N/mcp (default port ${DEFAULT_PORT}; 0: any free
port; loopback only). Clients need a key: roam-mcp key create NAME, or roam-mcp install <client>.
--public-url: also serve claude.ai, Claude's apps and ChatGPT through a tunnel you own, on a second loopback
port (--remote-port; 0: any free one), over OAuth, each connection approved at this machine
(roam-mcp remote requests / approve ID; docs/remote.md). Access tokens last D days (default 7).
`;

const LIMITS_ENV: Record<string, keyof HubLimits> = {
  ROAM_MCP_HTTP_MAX_CHATS: 'maxChats',
  ROAM_MCP_HTTP_RATE_PER_MINUTE: 'ratePerMinute',
  ROAM_MCP_HTTP_MAX_BODY_BYTES: 'maxBodyBytes',
  ROAM_MCP_HTTP_MAX_CHATS_PER_KEY: 'maxChatsPerKey',
  ROAM_MCP_HTTP_MAX_CONNECTIONS: 'maxConnections',
  ROAM_MCP_HTTP_HEADERS_TIMEOUT_MS: 'headersTimeoutMs',
  ROAM_MCP_HTTP_REQUEST_TIMEOUT_MS: 'requestTimeoutMs',
};

export async function runServeCli(
  args: string[],
  context: { env: NodeJS.ProcessEnv; home: string; version: string },
): Promise<number | undefined> {
  let values;
  try {
    ({ values } = parseArgs({ args, options, strict: true, allowPositionals: false }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!values.http) return usageError('serve needs --http (stdio is `roam-mcp` without a subcommand).');
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return usageError(`--port ${values.port} is not a port: use a number from 0 (any free port) to 65535.`);
  const host = values.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.includes(host)) return usageError(notLoopback(host));
  let indexStalenessMs: number | undefined;
  if (values['index-staleness-ms'] !== undefined) {
    const parsed = parseStaleness(values['index-staleness-ms'], '--index-staleness-ms');
    if (typeof parsed === 'string') return usageError(parsed);
    indexStalenessMs = parsed;
  }
  const limits: Partial<HubLimits> = {};
  for (const [name, field] of Object.entries(LIMITS_ENV)) {
    const raw = context.env[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      return usageError(`${name}=${raw} is not a positive whole number.`);
    limits[field] = value;
  }
  const remote = remoteOptions(values, context.env);
  if (typeof remote === 'string') return usageError(remote);
  const { runServer } = await import('../process/run-server.ts');
  await runServer({
    configPath: values.config || undefined,
    readOnly: values['read-only'] ?? false,
    ...(values.tools ? { tools: values.tools } : {}),
    indexStalenessMs,
    ...(values['upload-folder'] ? { uploadFolders: values['upload-folder'] } : {}),
    env: context.env,
    home: context.home,
    version: context.version,
    http: { port, host, limits, ...(remote ? { remote } : {}) },
  });
  return undefined;
}

/** `--public-url` with `--remote-port` (both, or neither), checked; or what is wrong. */
function remoteOptions(
  values: { 'public-url'?: string; 'remote-port'?: string; 'remote-token-days'?: string },
  env: NodeJS.ProcessEnv,
): RemoteSettings | undefined | string {
  const publicUrl = values['public-url'];
  const rawPort = values['remote-port'];
  if (publicUrl === undefined && rawPort === undefined && values['remote-token-days'] === undefined)
    return undefined;
  if (publicUrl === undefined)
    return "--remote-port and --remote-token-days need --public-url https://HOST (the tunnel's address).";
  const parsed = parsePublicUrl(publicUrl);
  if ('error' in parsed) return parsed.error;
  const port = Number(rawPort);
  if (rawPort === undefined || !Number.isInteger(port) || port < 0 || port > 65535)
    return `--public-url needs --remote-port N, the loopback port the tunnel points at (0: any free one)${rawPort === undefined ? '' : `, not ${rawPort}`}.`;
  const days = values['remote-token-days'] === undefined ? undefined : Number(values['remote-token-days']);
  if (days !== undefined && !(days > 0 && days <= 90))
    return `--remote-token-days ${values['remote-token-days']} is not a number of days from more than 0 to 90.`;
  return remoteSettings(parsed.url.href, port, days, env);
}

function usageError(message: string): number {
  process.stderr.write(`roam-mcp serve: ${message}\n\n${USAGE}`);
  return 2;
}
