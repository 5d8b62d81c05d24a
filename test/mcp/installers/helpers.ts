/** Temp homes laid out like each platform's, and realistic client configs to install into. */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { InstallerOptions, Launcher } from '../../../src-mcp/installers/installer-options.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

export interface TempHome {
  home: string;
  /** A launcher whose command and script exist, like the standalone CLI's. */
  launcher: Launcher;
  cleanup(): Promise<void>;
}

/** A fresh home dir with a real `roam-mcp.mjs` for the launcher to point at. */
export async function makeTempHome(): Promise<TempHome> {
  const home = await tempDir('roam-installers-');
  const script = path.join(home, 'lib', 'roam-companion', 'dist', 'roam-mcp.mjs');
  await mkdir(path.dirname(script), { recursive: true });
  await writeFile(script, '// stand-in bundle\n');
  return {
    home,
    launcher: { command: process.execPath, args: [script] },
    cleanup: () => removeDir(home),
  };
}

/**
 * A fresh home (makeTempHome) for each test of the calling file, removed after it: the object
 * stays the same, its fields are the current test's.
 */
export function tempHomeForEachTest(): TempHome {
  const current = {} as TempHome;
  beforeEach(async () => {
    Object.assign(current, await makeTempHome());
  });
  afterEach(() => current.cleanup());
  return current;
}

/** Claude Desktop's config file in `t`'s home, Linux layout. */
export const linuxClaudeDesktopFile = (t: TempHome) =>
  path.join(t.home, '.config', 'Claude', 'claude_desktop_config.json');

/** Creates `file` (and its folders) with `text` and `mode`. */
export async function writeConfig(file: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { mode });
}

export const readText = (file: string) => readFile(file, 'utf8');
export const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readText(file));
export const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

export function linuxOptions(t: TempHome, env: Record<string, string> = {}): InstallerOptions {
  return { home: t.home, launcher: t.launcher, platform: 'linux', env };
}

export function macOptions(t: TempHome): InstallerOptions {
  return { home: t.home, launcher: t.launcher, platform: 'darwin', env: {} };
}

/** Windows with APPDATA/LOCALAPPDATA set, as Windows always sets them. */
export function windowsOptions(t: TempHome): InstallerOptions {
  return {
    home: t.home,
    launcher: t.launcher,
    platform: 'win32',
    env: {
      APPDATA: path.join(t.home, 'AppData', 'Roaming'),
      LOCALAPPDATA: path.join(t.home, 'AppData', 'Local'),
    },
  };
}

/** A Claude Desktop config as people have them: several servers, the official Roam one, settings. */
export const CLAUDE_DESKTOP_CONFIG = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Documents"]
    },
    "roam": {
      "command": "npx",
      "args": ["roam-mcp"],
      "env": {
        "ROAM_API_TOKEN": "roam-graph-local-token-R8KP2tPuxcUflAo_7tkc5lOPgo7ki",
        "ROAM_GRAPH": "my-graph"
      }
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789" }
    }
  },
  "globalShortcut": "Ctrl+Space",
  "preferences": { "menuBarEnabled": false }
}
`;

/** VS Code's mcp.json with comments, inputs and a trailing comma, all of which must survive. */
export const VSCODE_CONFIG = `// Servers for every workspace.
{
  "inputs": [
    { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true },
  ],
  "servers": {
    // Perplexity search, asks for its key once.
    "perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" }
    },
    /* The official Roam server. */
    "roam": { "type": "stdio", "command": "npx", "args": ["roam-mcp"] },
  },
}
`;
