/**
 * The toolsets a client's entry chose (`--tools` after `--mcp`, written by the installer) reach
 * the real roam-mcp child through the --mcp launcher: tools/list shows only them.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsFromArgv } from '../../src-main/core/mcp-launcher.ts';
import { tools } from '../../src-mcp/tool-catalogue.ts';
import { TOOLSETS } from '../../src-shared/toolsets.ts';
import { SERVER_NODE } from '../server-node.ts';
import { mcpBundle, repoRoot, startCore, tempDirs } from './helpers.ts';

const launcherEntry = path.join(repoRoot, 'test/tray/fixtures/launcher-entry.ts');

/** Listed without a reachable Roam: every catalogue tool of `set` but the capability-probed ones. */
const listedOf = (set: keyof typeof TOOLSETS) =>
  tools
    .filter((t) => !t.requiresAction && (TOOLSETS[set] as readonly string[]).includes(t.name))
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
        args: ['--import', 'tsx', launcherEntry, dirs.storeDir, mcpBundle, ...extraArgs],
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
    expect(await launch([])).toEqual(listedOf('core'));
  });

  it('reads --tools and --tools= from the app argv', () => {
    expect(toolsFromArgv(['app', '--mcp', '--tools', 'core,ui'])).toBe('core,ui');
    expect(toolsFromArgv(['app', '--mcp', '--tools=all'])).toBe('all');
    expect(toolsFromArgv(['app', '--mcp'])).toBeUndefined();
  });
});
