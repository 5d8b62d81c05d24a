/**
 * Roam versions through the built bin: `expectedApiVersion` on every request, VERSION_MISMATCH
 * naming the side to update, and UNKNOWN_ACTION from an older build telling to update Roam Desktop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { errorOf, newToken, removeHome, startMcp, tempHome, type McpHandle } from '../harness/mcp-bin.ts';

const TOKEN = newToken();
let home: string | undefined;
let emulator: Emulator | undefined;
let mcp: McpHandle | undefined;

async function serve(options: { apiVersion?: string; missingActions?: string[] }): Promise<McpHandle> {
  home = await tempHome();
  emulator = await startEmulator({
    home,
    ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
    graphs: [
      {
        name: 'demo',
        content: 'demo',
        tokens: [{ token: TOKEN, accessLevel: 'full' }],
        ...(options.missingActions ? { missingActions: options.missingActions } : {}),
      },
    ],
  });
  mcp = await startMcp({ home, env: { ROAM_GRAPH: 'demo', ROAM_API_TOKEN: TOKEN } });
  return mcp;
}

afterEach(async () => {
  await mcp?.close();
  await emulator?.close();
  if (home) await removeHome(home);
  mcp = emulator = home = undefined;
});

describe('Local API versions', () => {
  it('sends expectedApiVersion "1.1.5" on every request and works with a Roam of another patch', async () => {
    const client = await serve({ apiVersion: '1.1.9' });
    const result = await client.call('get_page', { title: 'Project Apollo' });
    expect(result.isError).toBeFalsy();
    const calls = emulator!.requests.filter((r) => r.action);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls)
      expect((call.body as { expectedApiVersion?: unknown }).expectedApiVersion).toBe('1.1.5');
  });

  it('tells to update roam-mcp when Roam speaks a newer major.minor', async () => {
    const client = await serve({ apiVersion: '1.2.0' });
    const error = errorOf(await client.call('get_page', { title: 'Project Apollo' }));
    expect(error.code).toBe('VERSION_MISMATCH');
    expect(error.message).toContain('Roam Desktop speaks Local API 1.2.0; this roam-mcp speaks 1.1.5');
    expect(error.message).toContain('Update roam-mcp (the MCP server)');
    expect(error.roamApiVersion).toBe('1.2.0');
  });

  it('tells to update Roam Desktop when Roam speaks an older major.minor', async () => {
    const client = await serve({ apiVersion: '1.0.3' });
    const error = errorOf(await client.call('search', { query: 'Welcome' }));
    expect(error.code).toBe('VERSION_MISMATCH');
    expect(error.message).toContain('Update Roam Desktop to its latest version');
    expect(error.message).not.toContain('Update roam-mcp');
  });

  it('answers UNKNOWN_ACTION from an older build with the feature and "update Roam Desktop"', async () => {
    const client = await serve({ missingActions: ['data.ai.getGraphGuidelines'] });
    const error = errorOf(await client.call('select_graph', { graph: 'demo' }));
    expect(error.code).toBe('UNKNOWN_ACTION');
    expect(error.message).toContain('does not offer graph guidelines (select_graph)');
    expect(error.message).toContain('update Roam Desktop to its latest version');
    expect(error.roamApiVersion).toBe('1.1.5');
  });
});
