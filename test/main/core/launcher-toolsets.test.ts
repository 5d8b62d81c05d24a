/**
 * The toolsets a client's entry chose (`--tools` after `--mcp`, written by the installer) reach
 * the real roam-mcp child through the --mcp launcher: tools/list shows only them; a later choice
 * (stored per client, found by the entry's `--client`) reaches the connected client live.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { argvOption } from '../../../src-main/core/clients/mcp-launcher.ts';
import { tools } from '../../../src-mcp/server/tool-catalogue.ts';
import { isAppOnly, probedActions } from '../../../src-mcp/contract/tool-definition.ts';
import { DEFAULT_TOOLSETS, type ToolsetName } from '../../../src-shared/toolsets.ts';
import { SERVER_NODE } from '../../server-node.ts';
import { mcpBundle, repoRoot, startCore, tempDirs } from '../helpers.ts';
import { fixtureScript } from '../../harness/fixture-bundles.ts';

const launcherEntry = fixtureScript('launcher-entry');

/**
 * Listed without a reachable Roam to a client that renders no apps: every catalogue tool of `set`
 * but the capability-probed and the app-only ones.
 */
const listedOf = (...sets: readonly ToolsetName[]) =>
  tools
    .filter((t) => probedActions(t).length === 0 && !isAppOnly(t) && sets.includes(t.toolset))
    .map((t) => t.name);

describe('toolsets through the --mcp launcher', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function launch(extraArgs: string[], env: Record<string, string> = {}) {
    const dirs = await tempDirs();
    const { core } = startCore(dirs);
    await core.handlers['graphs:add']({ name: 'first-graph', nickname: 'First' });
    const client = new Client({ name: 'tray-test', version: '0.0.0' });
    const { ROAM_MCP_TOOLS: _inherited, ...parentEnv } = process.env as Record<string, string>;
    await client.connect(
      new StdioClientTransport({
        command: SERVER_NODE,
        args: [launcherEntry, dirs.storeDir, mcpBundle, ...extraArgs],
        cwd: repoRoot,
        env: { ...parentEnv, HOME: dirs.home, ...env },
        stderr: 'inherit',
      }),
    );
    cleanups.push(async () => {
      await client.close();
      await core.close();
      await dirs.cleanup();
    });
    return (await client.listTools()).tools.map((t) => t.name);
  }

  it('--tools after --mcp selects the sets the child lists', async () => {
    expect(await launch(['--tools', 'navigation'])).toEqual(listedOf('navigation'));
  });

  it('without --tools the child lists the default set', async () => {
    expect(await launch([])).toEqual(listedOf(...DEFAULT_TOOLSETS));
  });

  it('a new choice in the AI clients screen reaches the connected client live (tools/list_changed)', async () => {
    const dirs = await tempDirs();
    await mkdir(path.join(dirs.home, '.cursor'));
    const { core } = startCore(dirs, {
      launcher: { command: process.execPath, args: ['--mcp'] },
      platform: 'linux',
      env: {},
    });
    await core.handlers['graphs:add']({ name: 'first-graph', nickname: 'First' });
    await core.handlers['clients:install']({ id: 'cursor', toolsets: ['core'] });
    const entry = JSON.parse(await readFile(path.join(dirs.home, '.cursor/mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    // What Cursor would start: the entry's arguments after --mcp.
    const entryArgs = entry.mcpServers['roam-companion']!.args.slice(1);
    expect(entryArgs).toEqual(['--client', 'cursor', '--tools', 'core']);
    const client = new Client({ name: 'tray-test', version: '0.0.0' });
    const { ROAM_MCP_TOOLS: _inherited, ...parentEnv } = process.env as Record<string, string>;
    await client.connect(
      new StdioClientTransport({
        command: SERVER_NODE,
        args: [launcherEntry, dirs.storeDir, mcpBundle, ...entryArgs],
        cwd: repoRoot,
        env: { ...parentEnv, HOME: dirs.home },
        stderr: 'inherit',
      }),
    );
    cleanups.push(async () => {
      await client.close();
      await core.close();
      await dirs.cleanup();
    });
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    expect(await names()).toEqual(listedOf('core'));
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await core.handlers['clients:install']({ id: 'cursor', toolsets: ['navigation'] });
    await changed;
    expect(await names()).toEqual(listedOf('navigation'));
  });

  it('reads --tools and --client, with or without =, from the app argv', () => {
    expect(argvOption(['app', '--mcp', '--tools', 'core,ui'], 'tools')).toBe('core,ui');
    expect(argvOption(['app', '--mcp', '--client=cursor', '--tools=all'], 'tools')).toBe('all');
    expect(argvOption(['app', '--mcp', '--client=cursor', '--tools=all'], 'client')).toBe('cursor');
    expect(argvOption(['app', '--mcp'], 'tools')).toBeUndefined();
  });
});
