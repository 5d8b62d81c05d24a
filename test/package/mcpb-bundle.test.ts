/**
 * The Claude Desktop bundle: built by the real script, unpacked and validated by the mcpb tooling,
 * then started the way Claude Desktop starts it (the mcpb library's own `getMcpConfigForManifest`
 * turns the manifest and the user's settings into the command, args and env), over stdio.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { getMcpConfigForManifest, unpackExtension, type McpbManifestAny } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as catalogue } from '../../src-mcp/server/tool-catalogue.ts';
import { isAppOnly, probedActions } from '../../src-mcp/contract/tool-definition.ts';
import {
  binCommand,
  ROOT,
  newToken,
  removeHome,
  binEnv,
  tempHome,
  writeToolsConfig,
} from '../harness/mcp-bin.ts';

const run = promisify(execFile);
const MCPB_CLI = path.join(ROOT, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');

let work: string;
let unpacked: string;
let manifest: McpbManifestAny & Record<string, unknown>;

beforeAll(async () => {
  work = await tempHome('roam-mcpb-test-');
  const bundle = path.join(work, 'roam-mcp.mcpb');
  await run(process.execPath, [path.join(ROOT, 'scripts/build-mcpb.mjs'), '--out', bundle]);
  unpacked = path.join(work, 'unpacked');
  // The function `mcpb unpack` runs, without starting its CLI in a process of its own.
  if (!(await unpackExtension({ mcpbPath: bundle, outputDir: unpacked, silent: true })))
    throw new Error(`mcpb could not unpack ${bundle}`);
  manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8'));
}, 120_000);
afterAll(() => removeHome(work));

/** Connects like Claude Desktop would with these settings; returns the client and the launch config. */
async function startAsClaudeDesktop(
  home: string,
  userConfig: Record<string, string>,
  extraEnv: Record<string, string> = {},
) {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: unpacked,
    systemDirs: { HOME: home },
    userConfig,
    pathSeparator: path.sep,
  });
  if (!config) throw new Error('the mcpb library produced no launch config');
  const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' });
  const env = binEnv(home, { ...config.env, ...extraEnv });
  await client.connect(
    new StdioClientTransport({ command: config.command, args: config.args, env, stderr: 'pipe' }),
  );
  return { client, config };
}

async function graphsListed(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'list_graphs', arguments: {} });
  return JSON.stringify(result.content);
}

describe('roam-mcp.mcpb', () => {
  it('passes `mcpb validate`', async () => {
    const { stdout } = await run(process.execPath, [
      MCPB_CLI,
      'validate',
      path.join(unpacked, 'manifest.json'),
    ]);
    expect(stdout).toContain('Manifest schema validation passes');
  });

  it('carries the package version, the icon and the tools the real bin lists by default', async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      version: pkg.version,
      display_name: 'Roam Companion',
      icon: 'icon.png',
    });
    expect(await readFile(path.join(unpacked, 'icon.png'))).toEqual(
      await readFile(path.join(ROOT, 'assets/icon.png')),
    );
    const client = new Client({ name: 'tools', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: binCommand()[0],
        args: binCommand()[1],
        // The default selection, which the manifest describes (the harness selects all otherwise).
        env: binEnv(work, { ROAM_MCP_TOOLS: '' }),
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    await client.close();
    expect(manifest.tools).toEqual(tools.map(({ name, description }) => ({ name, description })));
  });

  it('lists exactly the tools the bundle serves with no settings: every set but developer', async () => {
    const home = path.join(work, 'home-default');
    await mkdir(home, { recursive: true });
    const config = { version: 1, graphs: [{ name: 'default-graph', type: 'hosted', token: newToken() }] };
    await writeToolsConfig(home, { text: JSON.stringify(config), mode: 0o600 });
    // Claude Desktop passes no ROAM_MCP_TOOLS: only the manifest's `--tools=` (empty) selects.
    const started = await startAsClaudeDesktop(home, {}, { ROAM_MCP_TOOLS: '' });
    try {
      const served = (await started.client.listTools()).tools.map((tool) => tool.name);
      expect(manifest.tools?.map((tool) => tool.name)).toEqual(served);
      const declared = catalogue.filter(
        (tool) => tool.toolset !== 'developer' && probedActions(tool).length === 0 && !isAppOnly(tool),
      );
      expect(served).toEqual(declared.map((tool) => tool.name));
    } finally {
      await started.client.close();
    }
  });

  it('carries the agent skill as it is in the repo', async () => {
    const skill = 'skills/roam-companion/SKILL.md';
    expect(await readFile(path.join(unpacked, skill), 'utf8')).toBe(
      await readFile(path.join(ROOT, skill), 'utf8'),
    );
  });

  it('never maps a sensitive setting into argv', () => {
    const sensitive = Object.entries(manifest.user_config ?? {})
      .filter(([, option]) => option.sensitive)
      .map(([key]) => `\${user_config.${key}}`);
    expect(sensitive).toEqual(['${user_config.token}']);
    const mcpConfig = manifest.server.mcp_config;
    const argLists = [
      mcpConfig.args ?? [],
      ...Object.values(mcpConfig.platform_overrides ?? {}).map((o) => o.args ?? []),
    ];
    for (const args of argLists) for (const ref of sensitive) expect(args.join(' ')).not.toContain(ref);
  });

  it('runs with a single graph and token from the settings, the token only in the env', async () => {
    const home = path.join(work, 'home-env');
    await mkdir(home, { recursive: true });
    const token = newToken();
    const { client, config } = await startAsClaudeDesktop(home, { graph: 'Work Notes', token });
    try {
      expect(config.args?.join(' ')).not.toContain(token);
      expect(config.env?.ROAM_API_TOKEN).toBe(token);
      const listed = await graphsListed(client);
      expect(listed).toContain('Work Notes');
      expect(listed).not.toContain(token);
    } finally {
      await client.close();
    }
  });

  it('with no settings, reads ~/.roam-tools.json (nothing left as a literal ${user_config.*})', async () => {
    const home = path.join(work, 'home-file');
    await mkdir(home, { recursive: true });
    const config = { version: 1, graphs: [{ name: 'personal-graph', type: 'hosted', token: newToken() }] };
    await writeToolsConfig(home, { text: JSON.stringify(config), mode: 0o600 });
    const started = await startAsClaudeDesktop(home, {});
    try {
      expect(JSON.stringify(started.config)).not.toContain('${');
      expect(await graphsListed(started.client)).toContain('personal-graph');
    } finally {
      await started.client.close();
    }
  });

  it('offers the toolsets chosen in the settings', async () => {
    const home = path.join(work, 'home-tools');
    await mkdir(home, { recursive: true });
    const started = await startAsClaudeDesktop(home, { tools: 'navigation' });
    try {
      const names = (await started.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('get_hubs');
      expect(names).not.toContain('get_page');
    } finally {
      await started.client.close();
    }
  });

  it('uses the config file chosen in the settings', async () => {
    const home = path.join(work, 'home-chosen');
    await mkdir(home, { recursive: true });
    const file = path.join(home, 'graphs', 'roam.json');
    await mkdir(path.dirname(file), { recursive: true });
    const config = { version: 1, graphs: [{ name: 'chosen-graph', type: 'hosted', token: newToken() }] };
    await writeFile(file, JSON.stringify(config), { mode: 0o600 });
    const started = await startAsClaudeDesktop(home, { config_file: file });
    try {
      expect(await graphsListed(started.client)).toContain('chosen-graph');
    } finally {
      await started.client.close();
    }
  });
});
