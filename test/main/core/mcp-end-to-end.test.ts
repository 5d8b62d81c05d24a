// The whole chain with nothing faked: AI client (SDK) → launcher → real roam-mcp child →
// emulator over HTTP, and back: the token the child obtains is stored by the launcher, encrypted,
// and a token Roam revokes shows as revoked in the tray.
import { readFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileKeySecretBox } from '../../../src-main/core/store/file-key-secret-box.ts';
import { TrayStore, createConfBackend } from '../../../src-main/core/store/tray-store.ts';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { TOKEN_PATTERN, startCore, tempDirs, waitFor, connectThroughLauncher } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'e2e-graph', content: 'demo' }] });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  await core.handlers['graphs:add']({ name: 'e2e-graph', nickname: 'E2E', accessLevel: 'full' });
  client = await connectThroughLauncher(dirs, 'tray-e2e');
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('client → launcher → real roam-mcp → emulator', () => {
  it('a token obtained by the child’s exchange is handed back and stored encrypted', async () => {
    const result = await client.callTool({ name: 'select_graph', arguments: { graph: 'E2E' } });
    expect(result.isError ?? false).toBe(false);
    const graph = await waitFor(async () =>
      (await core.handlers['graphs:list'](undefined)).find(
        (g) => g.id === 'hosted:e2e-graph' && g.token.state === 'ok',
      ),
    );
    const store = new TrayStore(
      createConfBackend(dirs.storeDir),
      dirs.storeDir,
      createFileKeySecretBox(dirs.storeDir),
    );
    const token = (await store.openToken(store.read().graphs[0]!))!;
    expect(graph.token.last4).toBe(token.slice(-4));
    expect(await readFile(store.path, 'utf8')).not.toContain(token);
    expect(await readFile(store.path, 'utf8')).not.toMatch(TOKEN_PATTERN);
  });

  it('a token Roam revoked is reported by the child and shows as revoked', async () => {
    const store = new TrayStore(
      createConfBackend(dirs.storeDir),
      dirs.storeDir,
      createFileKeySecretBox(dirs.storeDir),
    );
    emulator.autoDecide({ kind: 'reject' });
    emulator.revokeToken((await store.openToken(store.read().graphs[0]!))!);
    await client.callTool({ name: 'select_graph', arguments: { graph: 'E2E' } });
    await waitFor(async () =>
      (await core.handlers['graphs:list'](undefined)).find(
        (g) => g.id === 'hosted:e2e-graph' && g.token.state === 'revoked',
      ),
    );
  });
});
