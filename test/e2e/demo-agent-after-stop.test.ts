/**
 * The demo stops while an agent is connected through its entry: the agent's server ends (its
 * client sees the connection close) instead of recreating the tray store in the deleted HOME and
 * telling the agent it has no graph.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemo, startDemoPreview, type Demo } from '../../scripts/demo.ts';
import type { Preview } from '../../src-main/preview/server.ts';

let demo: Demo | undefined;
let preview: Preview | undefined;
let agent: Client | undefined;

afterAll(async () => {
  await agent?.close();
  await preview?.close();
  await demo?.close();
});

describe('an agent connected when the demo stops', () => {
  it('is disconnected, and the deleted HOME stays deleted', async () => {
    demo = await startDemo();
    preview = await startDemoPreview(demo);
    await preview.core.handlers['import:run'](undefined);
    agent = new Client({ name: 'Claude Desktop', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: demo.launcher.command, args: demo.launcher.args });
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await agent.connect(transport);
    const list = await agent.callTool({ name: 'list_graphs', arguments: {} });
    expect(JSON.stringify(list.content)).toContain('Work');

    const home = demo.home;
    await preview.close();
    preview = undefined;
    await demo.close(); // the emulator stops and the temporary HOME is deleted
    demo = undefined;
    await closed;
    expect(existsSync(path.join(home, '.roam-companion'))).toBe(false);
    expect(existsSync(home)).toBe(false);
  });
});
