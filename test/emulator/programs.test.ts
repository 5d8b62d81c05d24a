// The built programs as people run them: `node dist/demo.mjs` and `node dist/emulator.mjs`.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../harness/temp-dir.ts';
import { toolsConfigPath } from '../harness/mcp-bin.ts';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcessWithoutNullStreams[] = [];
const temps: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

function start(
  script: string,
  args: string[] = [],
): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, [path.join(root, 'dist', script), ...args], { stdio: 'pipe' });
  children.push(child);
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/** Resolves once the process has printed `marker` (or rejects if it exits first). */
function printed(
  child: ChildProcessWithoutNullStreams,
  output: () => string,
  marker: RegExp,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // Registered after start()'s collectors, so output() already holds the chunk being checked.
    const check = () => {
      if (!marker.test(output())) return;
      cleanup();
      resolve(output());
    };
    const onExit = () => {
      cleanup();
      if (marker.test(output())) resolve(output());
      else reject(new Error(`exited before printing ${marker}:\n${output()}`));
    };
    const cleanup = () => {
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

async function portIsClosed(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/api/graphs/open`).then(
    () => false,
    () => true,
  );
}

describe('npm run demo (dist/demo.mjs)', () => {
  it('prints a ready-to-paste client config, serves the demo graphs, and cleans up on SIGTERM', async () => {
    const { child, output } = start('demo.mjs');
    const text = await printed(child, output, /Ctrl-C stops the demo/);
    const home = /Temporary HOME:\s+(\S+)/.exec(text)?.[1] as string;
    // Clients launch the demo's --mcp launcher on the tray store (the agent sees what the tray shows).
    const entry = JSON.parse(/(\{\n {2}"roam-companion-demo"[\s\S]*?\n\})/.exec(text)?.[1] as string);
    const launcherArgs = [path.join(root, 'dist', 'demo-mcp.mjs'), '--home', home];
    expect(entry['roam-companion-demo']).toEqual({ command: process.execPath, args: launcherArgs });
    expect(text).toContain(`${process.execPath} ${launcherArgs.join(' ')}`);

    const { port } = JSON.parse(await readFile(path.join(home, '.roam-local-api.json'), 'utf8'));
    const config = JSON.parse(await readFile(toolsConfigPath(home), 'utf8'));
    expect(config.graphs.map((g: { name: string; type: string }) => `${g.name}:${g.type}`)).toEqual([
      'demo-work:hosted',
      'demo-personal:offline',
    ]);
    const [work, personal] = config.graphs as Array<{ token: string }>;
    const ask = (graph: string, token: string, query = '') =>
      fetch(`http://127.0.0.1:${port}/api/${graph}${query}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'data.ai.getGraphGuidelines', args: [{}] }),
      }).then((r) => r.json() as Promise<{ success: boolean; result: unknown }>);
    const answer = (await ask('demo-work', work!.token)).result as { guidelines: string };
    expect(answer.guidelines).toMatch(/^# roam\/agent guidelines/);
    expect((await ask('demo-personal', personal!.token, '?type=offline')).success).toBe(true);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(await portIsClosed(port)).toBe(true);
    expect(existsSync(home)).toBe(false);
  });
});

describe('dist/emulator.mjs', () => {
  it('serves the graphs it is given, prints one token per graph, and stops on SIGINT', async () => {
    const home = await tempDir('emulator-cli-');
    temps.push(home);
    const { child, output } = start('emulator.mjs', [
      '--home',
      home,
      '--graph',
      'w:demo',
      '--graph',
      'n:offline:generate=200',
    ]);
    const text = await printed(child, output, /"graphs":\[.*\]\}\n/);
    const info = JSON.parse(text.split('\n').find((line) => line.startsWith('{"port"')) as string);
    expect(info.graphs.map((g: { name: string; type: string }) => `${g.name}:${g.type}`)).toEqual([
      'w:hosted',
      'n:offline',
    ]);
    expect(JSON.parse(await readFile(path.join(home, '.roam-local-api.json'), 'utf8'))).toEqual({
      port: info.port,
    });
    const reply = await fetch(`http://127.0.0.1:${info.port}/api/n?type=offline`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${info.graphs[1].token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'data.q', args: ['[:find (count ?b) . :where [?b :block/string]]'] }),
    }).then((r) => r.json());
    expect(reply.result).toBe(200);

    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(await portIsClosed(info.port)).toBe(true);
  });

  it('rejects an unknown graph option with the usage', async () => {
    const { child, output } = start('emulator.mjs', ['--graph', 'w:bogus']);
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(output()).toContain('--graph "w:bogus": unknown option "bogus".');
    expect(output()).toContain('Usage: node dist/emulator.mjs');
  });
});
