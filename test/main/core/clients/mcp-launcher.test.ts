import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import { childEnv } from '../../../../src-main/core/clients/mcp-launcher.ts';
import { TOKEN_PATTERN, mcpBundle, repoRoot, startCore, tempDirs, waitFor } from '../../helpers.ts';
import { fixtureScript } from '../../../harness/fixture-bundles.ts';
import { SERVER_NODE } from '../../../server-node.ts';
import { STORE_FILE } from '../../../../src-main/core/store/store-file.ts';

const fakeChild = path.join(repoRoot, 'test/main/fixtures/fake-mcp-child.mjs');
const launcherEntry = fixtureScript('launcher-entry');

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}

describe.each([
  { child: 'fake child speaking child-ipc', script: fakeChild },
  { child: 'real dist/roam-mcp.mjs', script: mcpBundle },
])('the --mcp launcher with the $child', ({ script }) => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  let core: TrayCore;
  let client: Client;
  let transport: StdioClientTransport;
  const listGraphs = async () => textOf(await client.callTool({ name: 'list_graphs', arguments: {} }));

  beforeAll(async () => {
    dirs = await tempDirs();
    ({ core } = startCore(dirs));
    await core.handlers['graphs:add']({ name: 'first-graph', nickname: 'First' });
    transport = new StdioClientTransport({
      command: SERVER_NODE,
      args: [launcherEntry, dirs.storeDir, script],
      cwd: repoRoot,
      // A legacy token variable in the client's env must not reach the child.
      env: {
        ...(process.env as Record<string, string>),
        HOME: dirs.home,
        ROAM_API_TOKEN: 'roam-graph-local-token-LEAKLEAKLEAK',
      },
      stderr: 'inherit',
    });
    client = new Client({ name: 'tray-test', version: '0.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    await core?.close();
    await dirs?.cleanup();
  });

  it('serves the stored graphs, and tray edits reach the running child live', async () => {
    await waitFor(async () => ((await listGraphs()).includes('First') ? true : undefined));
    await core.handlers['graphs:add']({ name: 'second-graph', nickname: 'Second' });
    await waitFor(async () => ((await listGraphs()).includes('Second') ? true : undefined));
    await core.handlers['graphs:remove']({ id: 'hosted:first-graph' });
    await waitFor(async () => ((await listGraphs()).includes('First') ? undefined : true));
    const status = await core.handlers['status:get'](undefined);
    expect(status.mcpSessions).toBe(1);
  });

  // Fake-child only: it can trigger hand-back on demand (mcp-end-to-end.test.ts does it with the real bundle).
  it.skipIf(script !== fakeChild)(
    'a token the child obtains is stored encrypted by the launcher',
    async () => {
      const token = 'roam-graph-local-token-CHILDxCHILDxCHILDxCHILDx4321';
      await client.callTool({ name: 'obtain_token', arguments: { name: 'second-graph', token } });
      const graph = await waitFor(async () =>
        (await core.handlers['graphs:list'](undefined)).find(
          (g) => g.id === 'hosted:second-graph' && g.token.state === 'ok',
        ),
      );
      expect(graph.token.last4).toBe('4321');
      expect(await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8')).not.toMatch(TOKEN_PATTERN);
      // The new config (with the token) went back to the child.
      await waitFor(async () => ((await listGraphs()).includes('"hasToken":true') ? true : undefined));
    },
  );

  it.skipIf(script !== fakeChild)(
    'a graph the child set up (setup_new_graph) is added to the store under its nickname',
    async () => {
      const token = 'roam-graph-local-token-SETUPxSETUPxSETUPxSETUPx8765';
      await client.callTool({
        name: 'obtain_token',
        arguments: { name: 'third-graph', token, nickname: 'Third notes' },
      });
      const graph = await waitFor(async () =>
        (await core.handlers['graphs:list'](undefined)).find((g) => g.id === 'hosted:third-graph'),
      );
      expect(graph).toMatchObject({ nickname: 'Third notes' });
      expect(await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8')).not.toMatch(TOKEN_PATTERN);
    },
  );

  it.skipIf(script !== fakeChild)(
    'a token the child saw rejected shows as revoked and is withheld',
    async () => {
      await client.callTool({ name: 'reject_token', arguments: { name: 'second-graph' } });
      await waitFor(async () =>
        (await core.handlers['graphs:list'](undefined)).find(
          (g) => g.id === 'hosted:second-graph' && g.token.state === 'revoked',
        ),
      );
      await waitFor(async () => ((await listGraphs()).includes('"hasToken":false') ? true : undefined));
    },
  );

  it.skipIf(script !== fakeChild)('the child gets no token in argv or env, only the IPC flag', async () => {
    const { argv, env } = JSON.parse(
      textOf(await client.callTool({ name: 'env_and_argv', arguments: {} })),
    ) as {
      argv: string[];
      env: Record<string, string>;
    };
    expect(JSON.stringify({ argv, env })).not.toMatch(TOKEN_PATTERN);
    expect(env.ROAM_MCP_CONFIG_FROM_PARENT).toBe('1');
    expect(env.ROAM_API_TOKEN).toBeUndefined();
  });

  it('the session ends with the client and is no longer counted', async () => {
    await client.close();
    await waitFor(async () =>
      (await core.handlers['status:get'](undefined)).mcpSessions === 0 ? true : undefined,
    );
  });
});

describe('the --mcp launcher before anything was saved', () => {
  it('tells the real child at once that it has no graph, and writes no store', async () => {
    const dirs = await tempDirs();
    const transport = new StdioClientTransport({
      command: SERVER_NODE,
      args: [launcherEntry, dirs.storeDir, mcpBundle],
      cwd: repoRoot,
      env: { ...(process.env as Record<string, string>), HOME: dirs.home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tray-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      // Without a first config the child would serve only after its wait, saying it had none yet.
      const answer = textOf(await client.callTool({ name: 'list_graphs', arguments: {} }));
      expect(answer).toContain('Roam Companion has no enabled graph');
      expect(existsSync(path.join(dirs.storeDir, STORE_FILE))).toBe(false);
    } finally {
      await client.close();
      await dirs.cleanup();
    }
  });
});

describe('childEnv', () => {
  it('drops token-like and legacy config variables and sets the IPC flag', () => {
    const env = childEnv({
      PATH: '/bin',
      ROAM_API_TOKEN: 't',
      ROAM_GRAPH: 'g',
      GITHUB_TOKEN: 'x',
      NODE_OPTIONS: '--inspect',
    });
    expect(env).toEqual({ PATH: '/bin', ROAM_MCP_CONFIG_FROM_PARENT: '1' });
  });
});
