// `npm run demo` as people run it: the tray UI is served, Roam is emulated, Ctrl-C leaves nothing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';

const root = path.resolve(import.meta.dirname, '../..');
const child = spawn(process.execPath, [path.join(root, 'dist', 'demo.mjs')], { stdio: 'pipe' });
let output = '';
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

async function waitForOutput(marker: RegExp): Promise<void> {
  while (!marker.test(output)) {
    const exited = once(child, 'exit').then(() => 'exit' as const);
    const data = Promise.race([once(child.stdout, 'data'), once(child.stderr, 'data')]);
    if ((await Promise.race([exited, data])) === 'exit' && !marker.test(output)) {
      throw new Error(`the demo exited before printing ${marker}:\n${output}`);
    }
  }
}

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

describe('npm run demo', () => {
  it('serves the tray UI bridged to the real core and emulator, and stops everything on Ctrl-C', async () => {
    await waitForOutput(/Ctrl-C stops the demo/);
    const [, ui, key] = /Tray UI \(browser preview\): (http:\/\/127\.0\.0\.1:\d+\/)#key=([\w-]{43})\n/.exec(
      output,
    ) as unknown as [string, string, string];
    const home = /Temporary HOME:\s+(\S+)/.exec(output)?.[1] as string;
    const roam = /Emulated Roam Local API: (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;
    expect(output).toMatch(/a = approve/);
    // Clients launch the demo's --mcp launcher on the tray store, not roam-mcp on ~/.roam-tools.json.
    const launcher = [process.execPath, path.join(root, 'dist', 'demo-mcp.mjs'), '--home', home];
    const printed = /^\{\n {2}"roam-companion-demo"[\s\S]*?^\}$/m.exec(output)?.[0] ?? '{}';
    expect(JSON.parse(printed)).toEqual({
      'roam-companion-demo': { command: launcher[0], args: launcher.slice(1) },
    });
    expect(output).toContain(`  ${launcher.join(' ')}\n`);
    // The entry is only good while the demo runs: it says so.
    expect(output).toContain(
      `This entry points into the temporary HOME (${home}), which is deleted when the demo`,
    );

    // The HTTP server every HTTP client connects to says where it is, and serves no one without a key.
    await waitForOutput(/MCP over HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp /);
    const mcpUrl = /MCP over HTTP at (\S+) /.exec(output)![1]!;
    const keyless = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(keyless.status).toBe(401);

    const withKey = { method: 'POST', headers: { authorization: `Bearer ${key}` } };
    const post = (channel: string) => fetch(`${ui}ipc/${channel}`, withKey).then((r) => r.text());
    expect(await (await fetch(ui)).text()).toContain('<div id="root">');
    // Another local process, without the key the printed URL carries, reaches nothing.
    expect((await fetch(`${ui}ipc/graphs:available`, { method: 'POST' })).status).toBe(401);
    const available = await fetch(`${ui}ipc/graphs:available`, withKey);
    expect(await available.json()).toEqual([
      { name: 'demo-work', type: 'hosted' },
      { name: 'demo-personal', type: 'offline' },
    ]);

    // Claude Desktop, Cursor and VS Code are sandboxed in the demo HOME, so they can be tried.
    const clients = JSON.parse(await post('clients:list')) as {
      id: string;
      state: string;
      configPath: string;
    }[];
    for (const id of ['claude-desktop', 'cursor', 'vscode']) {
      const view = clients.find((c) => c.id === id)!;
      expect(view.state).toBe('not-installed');
      expect(view.configPath.startsWith(`${home}${path.sep}`)).toBe(true);
    }

    // The demo's ~/.roam-tools.json is offered for import, and imports with its tokens kept sealed.
    expect(JSON.parse(await post('import:check'))).toMatchObject({ available: true, graphCount: 2 });
    const imported = await post('import:run');
    expect(JSON.parse(imported)).toEqual([
      expect.objectContaining({ nickname: 'Work', token: expect.objectContaining({ state: 'ok' }) }),
      expect.objectContaining({ nickname: 'Personal', token: expect.objectContaining({ state: 'ok' }) }),
    ]);
    expect(imported).not.toContain(LOCAL_TOKEN_PREFIX);

    // `s` stops the emulated Roam Desktop, and the tray shows it; `s` again starts it.
    const running = async () =>
      (JSON.parse(await post('status:get')) as { roam: { running: boolean } }).roam.running;
    child.stdin.write('s\n');
    await waitForOutput(/Roam Desktop stopped \(the emulated one\)/);
    expect(await refused(`${roam}/api/graphs/open`)).toBe(true);
    expect(await running()).toBe(false);
    child.stdin.write('s\n');
    await waitForOutput(/Roam Desktop started again on http:\/\/127\.0\.0\.1:\d+/);
    expect(await running()).toBe(true);

    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(await refused(ui)).toBe(true);
    expect(await refused(mcpUrl)).toBe(true);
    expect(await refused(`${roam}/api/graphs/open`)).toBe(true);
    expect(existsSync(home)).toBe(false);
  });
});
