// Builds roam-mcp.mcpb, the bundle Claude Desktop installs by double-click, from the bundled bin
// (dist/roam-mcp.mjs: run `node scripts/build.mjs mcp` first, as `npm run mcpb` does).
// `node scripts/build-mcpb.mjs [--out FILE]`; the default output is release/roam-mcp.mcpb.
// Manifest spec: github.com/anthropics/mcpb MANIFEST.md; packed and validated by `mcpb pack`.
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_CHUNKS } from './build.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist', 'roam-mcp.mjs');
const MCPB_CLI = path.join(root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
export const DEFAULT_OUT = path.join(root, 'release', 'roam-mcp.mcpb');

/**
 * The tools the bundle serves by default (no `tools` setting), as the real bin lists them when
 * started as the bundle starts it, with an empty HOME (no graph needed to list). A tool that waits
 * for a capability probe (semantic_search) joins only once a graph's Roam offers it, so it is not
 * in the manifest, as it is not in the first tools/list.
 */
export async function listBinTools() {
  const home = await mkdtemp(path.join(os.tmpdir(), 'roam-mcpb-tools-'));
  const client = new Client({ name: 'build-mcpb', version: '1.0.0' });
  try {
    const env = { HOME: home, USERPROFILE: home, PATH: process.env.PATH ?? '', ROAM_MCP_NO_LAUNCH: '1' };
    // stderr piped and dropped: the bin warns that no graph is configured, which is expected here.
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--tools='],
        env,
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    return tools.map((tool) => ({ name: tool.name, description: tool.description ?? '' }));
  } finally {
    await client.close();
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * Settings Claude Desktop asks for when installing. All optional: by default the bin reads
 * ~/.roam-tools.json. Empty defaults matter: an unset value without a default is passed on as the
 * literal `${user_config.x}`. The token is `sensitive` (Claude Desktop keeps it in the OS
 * keychain) and reaches the bin only as an environment variable, never in argv.
 */
const USER_CONFIG = {
  config_file: {
    type: 'file',
    title: 'Roam config file',
    description:
      'The file listing your graphs and their tokens. Leave empty for ~/.roam-tools.json ' +
      "(written by 'roam-mcp connect', shared with Roam's official MCP server).",
    required: false,
    default: '',
  },
  graph: {
    type: 'string',
    title: 'Single graph name (optional)',
    description:
      'Use just this graph, by its name in Roam, instead of the config file. Needs the token below.',
    required: false,
    default: '',
  },
  tools: {
    type: 'string',
    title: 'Toolsets (optional)',
    description:
      'Which tools a chat sees, comma-separated: core, navigation, ui, files, extensions, developer, ' +
      'or all. Leave empty for every set but developer (each tool costs context in every chat).',
    required: false,
    default: '',
  },
  token: {
    type: 'string',
    title: 'Local API token for that graph (optional)',
    description: 'From Roam Desktop > Settings > Graph > Local API Tokens. Stored in your OS keychain.',
    sensitive: true,
    required: false,
    default: '',
  },
};

/** The manifest for this version of the package and these tools. */
export function mcpbManifest({ pkg, tools }) {
  return {
    manifest_version: '0.3',
    name: 'roam-companion',
    display_name: pkg.productName,
    version: pkg.version,
    description: pkg.description,
    author: { name: 'Roam Companion contributors' },
    license: pkg.license,
    icon: 'icon.png',
    keywords: ['roam', 'roam-research', 'notes', 'knowledge-graph'],
    server: {
      type: 'node',
      entry_point: 'server/roam-mcp.mjs',
      mcp_config: {
        command: 'node',
        // `--config=` / `--tools=` with an empty value mean "the default", as without the option.
        args: [
          '${__dirname}/server/roam-mcp.mjs',
          '--config=${user_config.config_file}',
          '--tools=${user_config.tools}',
        ],
        env: { ROAM_GRAPH: '${user_config.graph}', ROAM_API_TOKEN: '${user_config.token}' },
      },
    },
    tools,
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: pkg.engines.node } },
    user_config: USER_CONFIG,
  };
}

/** Lays out the bundle's files in a temp folder and packs them with the mcpb tooling (which validates). */
export async function buildMcpb(outFile = DEFAULT_OUT) {
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const manifest = mcpbManifest({ pkg, tools: await listBinTools() });
  const staging = await mkdtemp(path.join(os.tmpdir(), 'roam-mcpb-'));
  try {
    await mkdir(path.join(staging, 'server'));
    await copyFile(BIN, path.join(staging, 'server', 'roam-mcp.mjs'));
    // The chunks the entry imports (scripts/build.mjs), without their source maps.
    await cp(path.join(path.dirname(BIN), MCP_CHUNKS), path.join(staging, 'server', MCP_CHUNKS), {
      recursive: true,
      filter: (source) => !source.endsWith('.map'),
    });
    await copyFile(path.join(root, 'assets', 'icon.png'), path.join(staging, 'icon.png'));
    await copyFile(path.join(root, 'LICENSE'), path.join(staging, 'LICENSE'));
    // The agent skill travels with the server it teaches (docs/mcp.md, Agent skill).
    await cp(path.join(root, 'skills'), path.join(staging, 'skills'), { recursive: true });
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(path.dirname(outFile), { recursive: true });
    await promisify(execFile)(process.execPath, [MCPB_CLI, 'pack', staging, outFile]);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return outFile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? path.resolve(process.argv[at + 1] ?? '') : DEFAULT_OUT;
  try {
    console.log(
      `Built ${await buildMcpb(out)}: double-click it to install Roam Companion in Claude Desktop.`,
    );
  } catch (error) {
    console.error(`Could not build the .mcpb bundle: ${error.stderr || error.message}`);
    console.error("Run 'node scripts/build.mjs mcp' first if dist/roam-mcp.mjs is missing.");
    process.exit(1);
  }
}
