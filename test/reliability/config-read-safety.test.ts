/**
 * Reading the config never hangs and never trips on whitespace: a FIFO where the config should
 * be is refused at once with a config error (the server still answers `initialize`, and exits
 * when stdin closes); a token with a trailing newline or `\r` is trimmed with a warning; a token
 * with whitespace inside is a config error naming the graph, never the token. The built bin over
 * stdio against the emulator.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateGraphs } from '../../src-shared/roam-config.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  binCommand,
  binEnv,
  errorCode,
  makeToken,
  startMcp,
  scratchHome,
  allTextOf,
  toolsConfigPath,
  writeToolsConfig,
} from '../harness/mcp-bin.ts';

const GRAPH = 'spaced-graph';
const TOKEN = makeToken('SPACED');
let home: { home: string; cleanup(): Promise<void> };
let emulator: Emulator;
const configPath = () => toolsConfigPath(home.home);

beforeEach(async () => {
  home = await scratchHome('roam-read-safety-');
  emulator = await startEmulator({
    home: home.home,
    port: 0,
    graphs: [{ name: GRAPH, content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
});

afterEach(async () => {
  await emulator?.close();
  await home?.cleanup();
});

describe('a FIFO where the config should be', () => {
  for (const where of ['~/.roam-tools.json', '--config']) {
    it(`${where}: answers initialize and every call with a config error`, { timeout: 20_000 }, async () => {
      const fifo = where === '--config' ? path.join(home.home, 'pipe.json') : configPath();
      execFileSync('mkfifo', [fifo]);
      const bin = await startMcp({ home: home.home, args: where === '--config' ? ['--config', fifo] : [] });
      try {
        const result = await bin.call('list_graphs', {});
        expect(errorCode(result)).toBe('CONFIG_INVALID');
        expect(allTextOf(result)).toContain(`${fifo} is a named pipe (FIFO), not a regular file`);
      } finally {
        await bin.close();
      }
    });
  }

  it('exits when stdin closes', { timeout: 20_000 }, async () => {
    execFileSync('mkfifo', [configPath()]);
    const child = spawn(...binCommand(), { env: binEnv(home.home), stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});

describe('whitespace in a token', () => {
  it('a trailing newline in the file is trimmed, with a warning that does not show the token', async () => {
    await writeToolsConfig(home.home, [{ name: GRAPH, token: `${TOKEN}\n` }]);
    const bin = await startMcp({ home: home.home });
    try {
      const result = await bin.call('get_page', { title: 'Project Apollo' });
      expect(errorCode(result), allTextOf(result)).toBeUndefined();
      expect(bin.stderr()).toMatch(/Graph 'spaced-graph': the token had spaces or line breaks around it/);
      expect(bin.stderr()).not.toContain(TOKEN);
    } finally {
      await bin.close();
    }
  });

  it('the \\r of a CRLF env file in ROAM_API_TOKEN is trimmed', async () => {
    const bin = await startMcp({
      home: home.home,
      env: { ROAM_GRAPH: GRAPH, ROAM_API_TOKEN: `${TOKEN}\r` },
    });
    try {
      const result = await bin.call('get_page', { title: 'Project Apollo' });
      expect(errorCode(result), allTextOf(result)).toBeUndefined();
      expect(bin.stderr()).not.toContain(TOKEN);
    } finally {
      await bin.close();
    }
  });

  it('whitespace inside the token is a config error naming the graph, not the token', async () => {
    const broken = `${TOKEN.slice(0, 30)} ${TOKEN.slice(30)}`;
    await writeToolsConfig(home.home, [{ name: GRAPH, token: broken }]);
    const bin = await startMcp({ home: home.home });
    try {
      const result = await bin.call('get_page', { title: 'Project Apollo' });
      expect(errorCode(result)).toBe('CONFIG_INVALID');
      expect(allTextOf(result)).toMatch(
        /Graph 'spaced-graph': the token contains a space or line break inside it/,
      );
      for (const text of [allTextOf(result), bin.stderr()]) {
        expect(text).not.toContain(TOKEN.slice(23, 30));
        expect(text).not.toContain(TOKEN.slice(30));
      }
    } finally {
      await bin.close();
    }
  });

  it('the tray IPC config goes through the same rules (validateGraphs)', () => {
    const trimmed = validateGraphs([{ name: GRAPH, type: 'hosted', token: `\t${TOKEN}\r\n` }]);
    expect(trimmed.errors).toEqual([]);
    expect(trimmed.graphs[0]?.token).toBe(TOKEN);
    expect(trimmed.warnings.join(' ')).not.toContain(TOKEN);
    const inside = validateGraphs([{ name: GRAPH, type: 'hosted', token: `${TOKEN}\nsecond-line` }]);
    expect(inside.errors.join(' ')).toMatch(/inside it/);
    expect(inside.errors.join(' ')).not.toContain(TOKEN);
  });
});
