// `npm run demo` leaves no temp HOME (it holds tokens) behind, whichever way it ends: real
// processes, real OS pipes, real signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../harness/temp-dir.ts';
import { toolsConfigPath } from '../harness/mcp-bin.ts';

const root = path.resolve(import.meta.dirname, '../..');
const demoBin = path.join(root, 'dist', 'demo.mjs');
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
});

/** Reads `stream` until the demo says it is ready; returns its temp HOME. */
async function readyHome(child: ChildProcess, stream: NodeJS.ReadableStream): Promise<string> {
  let output = '';
  const exited = once(child, 'exit').then(() => {
    throw new Error(`the demo exited before it was ready:\n${output}`);
  });
  for (;;) {
    const home = /Temporary HOME:\s+(\S+)/.exec(output)?.[1];
    if (home && /Ctrl-C stops the demo/.test(output)) return home;
    const [chunk] = (await Promise.race([once(stream, 'data'), exited])) as [Buffer];
    output += chunk.toString();
  }
}

function startDemo(): ChildProcess {
  const child = spawn(process.execPath, [demoBin], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(child);
  return child;
}

/** True while any process of the group `pgid` still runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run demo cleans up on every exit path', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s removes the temp HOME', async (signal) => {
    const child = startDemo();
    const home = await readyHome(child, child.stdout!);
    expect(existsSync(toolsConfigPath(home))).toBe(true);
    child.kill(signal);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(existsSync(home)).toBe(false);
  });

  it('Ctrl-C after the reader of its output is gone (EPIPE on stdout and stderr) removes the temp HOME', async () => {
    const child = startDemo();
    const home = await readyHome(child, child.stdout!);
    // What `| tee log` does when Ctrl-C kills tee first: the pipe's read end closes.
    child.stdout!.destroy();
    child.stderr!.destroy();
    child.kill('SIGINT');
    await once(child, 'exit');
    expect(existsSync(home)).toBe(false);
  });

  it('`demo 2>&1 | tee log` then Ctrl-C on the whole pipeline removes the temp HOME', async () => {
    const dir = await tempDir('demo-tee-');
    try {
      const log = path.join(dir, 'log');
      const shell = spawn('sh', ['-c', `"${process.execPath}" "${demoBin}" 2>&1 | tee "${log}"`], {
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      });
      started.push(shell);
      const home = await readyHome(shell, shell.stdout!);
      // The terminal sends SIGINT to the foreground process group: the demo and tee alike.
      process.kill(-shell.pid!, 'SIGINT');
      await expect.poll(() => groupAlive(shell.pid!), { timeout: 15_000, interval: 50 }).toBe(false);
      expect(existsSync(home)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C typed in a terminal running `demo 2>&1 | tee log` says on that terminal what it removed', async () => {
    const dir = await tempDir('demo-tty-');
    try {
      // script(1) gives the pipeline a real terminal; ^C on it interrupts the demo and tee alike.
      const pipeline = `"${process.execPath}" "${demoBin}" 2>&1 | tee "${path.join(dir, 'log')}"`;
      const terminal = spawn('script', ['-q', '-e', '-f', '-c', pipeline, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'inherit'],
        detached: true,
      });
      started.push(terminal);
      let screen = '';
      terminal.stdout!.on('data', (chunk: Buffer) => (screen += chunk.toString()));
      const home = await readyHome(terminal, terminal.stdout!);
      terminal.stdin!.write('\x03');
      await expect.poll(() => groupAlive(terminal.pid!), { timeout: 15_000, interval: 50 }).toBe(false);
      expect(existsSync(home)).toBe(false);
      // ^C reaches the demo and tee together: the demo sees either the signal or tee's end first.
      expect(screen).toMatch(
        new RegExp(`(SIGINT|output closed \\(EPIPE\\)): stopping the demo and removing ${home}`),
      );
      expect(screen).toContain(
        `Removed ${home} (the demo's tokens, tray store and sandboxed client configs).`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('SIGTERM says what it removed too', async () => {
    const child = startDemo();
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const home = await readyHome(child, child.stdout!);
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(said).toContain(`Removed ${home} (the demo's tokens, tray store and sandboxed client configs).`);
  });
});
