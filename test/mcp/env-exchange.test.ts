/**
 * Env-var config without a token: the first call asks Roam for one; it is kept in memory only
 * (nothing written under HOME) and the result says so.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { notesOf, removeHome, startMcp, tempHome, textOf, type McpHandle } from '../harness/mcp-bin.ts';

let home: string;
let emulator: Emulator;
let mcp: McpHandle;

beforeAll(async () => {
  home = await tempHome();
  emulator = await startEmulator({ home, graphs: [{ name: 'solo', type: 'offline', content: 'demo' }] });
  mcp = await startMcp({
    home,
    env: { ROAM_GRAPH: 'solo', ROAM_GRAPH_TYPE: 'offline' },
    clientName: 'Claude Desktop',
  });
});

afterAll(async () => {
  await mcp?.close();
  await emulator?.close();
  await removeHome(home);
});

it('exchanges a token on first use, keeps it in memory only, and says so', async () => {
  const before = await readdir(home);
  emulator.decide('solo', { kind: 'approve' }, 'offline');
  const result = await mcp.call('get_page', { title: 'Project Apollo' });
  expect(textOf(result)).toMatch(/^# Project Apollo/);
  expect(notesOf(result).join(' ')).toMatch(/in memory for this session only/);
  const request = emulator.requests.find((r) => r.path === '/api/graphs/tokens/request');
  expect(request?.body).toMatchObject({
    graph: 'solo',
    graphType: 'offline',
    description: 'roam-mcp (Claude Desktop)',
  });
  expect(await readdir(home)).toEqual(before);
  // The token is reused: no second dialog.
  await mcp.call('search', { query: 'apollo' });
  expect(emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request')).toHaveLength(1);
  const token = emulator.requests.at(-1)?.headers.authorization?.replace('Bearer ', '') ?? '';
  expect(token).toMatch(/^roam-graph-local-token-.+/);
  expect(mcp.transcript()).not.toContain(token.slice(23));
});
