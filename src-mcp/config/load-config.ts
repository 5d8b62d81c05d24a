/**
 * Where the graphs come from in standalone mode, first match wins: `ROAM_API_TOKEN` +
 * `ROAM_GRAPH` env vars (with ROAM_ACCESS_LEVEL for the chosen level), `--config PATH`,
 * `~/.roam-tools.json`, the legacy `~/.roam-mcp.json`.
 * (Under the tray, graphs arrive over IPC instead; see parent-channel.ts.)
 */
import os from 'node:os';
import path from 'node:path';
import {
  ACCESS_LEVELS,
  GRAPH_TYPES,
  validateGraphs,
  type AccessLevel,
  type GraphType,
} from '../../src-shared/roam-config.ts';
import { NotRegularFileError, readRegularFile } from '../../src-shared/node/read-regular-file.ts';
import { parseConfigText, type ParsedConfigFile } from './config-file.ts';
import { configFileCandidates } from '../../src-shared/config-files.ts';

export type ConfigSource =
  { kind: 'ipc' } | { kind: 'env' } | { kind: 'file'; path: string } | { kind: 'none'; searched: string[] };

/** The config as read, and where from; `errors` make it unusable (tools answer CONFIG_INVALID with them). */
export interface LoadedConfig extends ParsedConfigFile {
  source: ConfigSource;
}

export { CONFIG_FILE_NAME, LEGACY_CONFIG_FILE_NAME } from '../../src-shared/config-files.ts';
/** Expands a leading `~` (client configs pass `~/.roam-tools.json` without a shell). */
export function expandHome(file: string, home: string): string {
  if (file === '~') return home;
  if (file.startsWith('~/') || file.startsWith('~\\')) return path.join(home, file.slice(2));
  return path.resolve(file);
}

export async function loadConfig(options: {
  configPath?: string;
  env: NodeJS.ProcessEnv;
  home?: string;
}): Promise<LoadedConfig> {
  try {
    return await loadConfigUnsafe(options);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof NotRegularFileError) {
      return { source: { kind: 'none', searched: [] }, graphs: [], errors: [reason], warnings: [] };
    }
    return {
      source: { kind: 'none', searched: [] },
      graphs: [],
      errors: [`Could not read the Roam MCP config: ${reason}. Check the file's permissions.`],
      warnings: [],
    };
  }
}

async function loadConfigUnsafe(options: {
  configPath?: string;
  env: NodeJS.ProcessEnv;
  home?: string;
}): Promise<LoadedConfig> {
  const home = options.home ?? os.homedir();
  const env = options.env;
  if (env.ROAM_API_TOKEN || env.ROAM_GRAPH) return fromEnv(env);

  if (options.configPath) {
    const file = expandHome(options.configPath, home);
    const text = await readText(file);
    if (text === undefined) {
      return {
        source: { kind: 'none', searched: [file] },
        graphs: [],
        errors: [
          `The config file given with --config does not exist: ${file}. Create it, or add a graph to it with 'roam-mcp connect --config ${file}'.`,
        ],
        warnings: [],
      };
    }
    return { source: { kind: 'file', path: file }, ...parseConfigText(text, file) };
  }

  const candidates = configFileCandidates(home);
  for (const file of candidates) {
    const text = await readText(file);
    if (text !== undefined) return { source: { kind: 'file', path: file }, ...parseConfigText(text, file) };
  }
  return { source: { kind: 'none', searched: candidates }, graphs: [], errors: [], warnings: [] };
}

function fromEnv(env: NodeJS.ProcessEnv): LoadedConfig {
  const source = { kind: 'env' } as const;
  if (!env.ROAM_GRAPH) {
    return {
      source,
      graphs: [],
      errors: [
        'ROAM_API_TOKEN is set but ROAM_GRAPH is not: set ROAM_GRAPH to the graph name (as shown in Roam).',
      ],
      warnings: [],
    };
  }
  const type = (env.ROAM_GRAPH_TYPE || 'hosted') as GraphType;
  const problem = !GRAPH_TYPES.includes(type)
    ? `ROAM_GRAPH_TYPE is '${env.ROAM_GRAPH_TYPE}': use 'hosted' (the default) or 'offline'.`
    : env.ROAM_ACCESS_LEVEL && !ACCESS_LEVELS.includes(env.ROAM_ACCESS_LEVEL as AccessLevel)
      ? `ROAM_ACCESS_LEVEL is '${env.ROAM_ACCESS_LEVEL}': use one of ${ACCESS_LEVELS.join(', ')}.`
      : undefined;
  if (problem) return { source, graphs: [], errors: [problem], warnings: [] };
  const { graphs, errors, warnings } = validateGraphs([
    {
      name: env.ROAM_GRAPH,
      type,
      ...(env.ROAM_API_TOKEN ? { token: env.ROAM_API_TOKEN } : {}),
      ...(env.ROAM_GRAPH_NICKNAME ? { nickname: env.ROAM_GRAPH_NICKNAME } : {}),
      ...(env.ROAM_ACCESS_LEVEL ? { accessLevel: env.ROAM_ACCESS_LEVEL as AccessLevel } : {}),
    },
  ]);
  return { source, graphs, errors: errors.map((e) => `ROAM_API_TOKEN: ${e}`), warnings };
}

async function readText(file: string): Promise<string | undefined> {
  return readRegularFile(file);
}

/** What to tell an agent (and the person behind it) when no config was found. */
export function setupInstructions(searched: string[], connectCommand: string): string {
  return (
    `No Roam graph is configured (looked for ${searched.join(', ')}). ` +
    `To set one up: run '${connectCommand}' in a terminal (it asks Roam Desktop for a token); ` +
    `or create ~/.roam-tools.json as {"version": 1, "graphs": [{"name": "<graph name>", "type": "hosted", "token": "roam-graph-local-token-...", "nickname": "<short name>"}]} ` +
    `(tokens: Roam Desktop > Settings > Graph > Local API Tokens); ` +
    `or set the environment variables ROAM_GRAPH, ROAM_API_TOKEN (and ROAM_GRAPH_TYPE=offline for offline graphs). Then restart the MCP client.`
  );
}
