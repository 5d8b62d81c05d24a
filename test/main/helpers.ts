/** Shared set-up for the tray tests: temp dirs, a core over real files, bounded waiting. */
import { mkdir } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventChannels, type EventChannel } from '../../src-shared/constants.ts';
import type { EventPayloads } from '../../src-shared/ipc-contract.ts';
import { createFileKeySecretBox } from '../../src-main/core/store/file-key-secret-box.ts';
import type { TrayCoreOptions } from '../../src-main/core/tray-core-options.ts';
import { createTrayCore, type TrayCore } from '../../src-main/core/tray-core.ts';
import { fixtureScript } from '../harness/fixture-bundles.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const mcpBundle = path.join(repoRoot, 'dist/roam-mcp.mjs');
export const TOKEN_PATTERN = /roam-graph-(local-)?token-[A-Za-z0-9_-]{5,}/;

export async function tempDirs(): Promise<{ home: string; storeDir: string; cleanup(): Promise<void> }> {
  const root = await tempDir('roam-tray-');
  const home = path.join(root, 'home');
  const storeDir = path.join(root, 'store');
  await mkdir(home);
  await mkdir(storeDir, { mode: 0o700 });
  return {
    home,
    storeDir,
    cleanup: () => removeDir(root),
  };
}

/** The command line that starts the `--mcp` launcher (bundled fixture) on the tray store in `dirs`. */
export const launcherArgs = (dirs: { storeDir: string }): string[] => [
  fixtureScript('launcher-entry'),
  dirs.storeDir,
  mcpBundle,
];

/**
 * An MCP client as an AI client app starts the tray: `--mcp` through the launcher, which runs the
 * real roam-mcp child on the tray store in `dirs` (HOME: where the child finds Roam's port file).
 */
export async function connectThroughLauncher(
  dirs: { home: string; storeDir: string },
  name: string,
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: launcherArgs(dirs),
      cwd: repoRoot,
      env: { ...(process.env as Record<string, string>), HOME: dirs.home, USERPROFILE: dirs.home, ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** A core over real temp files plus a log of every event it emitted. */
export function startCore(
  dirs: { home: string; storeDir: string },
  extra: Partial<TrayCoreOptions> = {},
): { core: TrayCore; events: Array<{ event: EventChannel; payload: unknown }> } {
  const core = createTrayCore({
    home: dirs.home,
    storeDir: dirs.storeDir,
    secretBox: createFileKeySecretBox(dirs.storeDir),
    mcpServerPath: mcpBundle,
    statusPollMs: 0,
    ...extra,
  });
  const events: Array<{ event: EventChannel; payload: unknown }> = [];
  for (const event of eventChannels) core.on(event, (payload) => events.push({ event, payload }));
  return { core, events };
}

/** Resolves with the first payload of `event` that satisfies `match` (bounded by `timeoutMs`). */
export function nextEvent<E extends EventChannel>(
  core: TrayCore,
  event: E,
  match: (payload: EventPayloads[E]) => boolean,
  timeoutMs = 10_000,
): Promise<EventPayloads[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching '${event}' event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = core.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

/** Polls `probe` until it returns a value other than undefined (bounded). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The URL of the tray's HTTP server once the core says it serves (its child can take seconds to start). */
export function servingUrl(core: Pick<TrayCore, 'handlers'>, timeoutMs = 20_000): Promise<string> {
  return waitFor(async () => {
    const { http } = await core.handlers['status:get'](undefined);
    return http?.state === 'serving' ? http.url : undefined;
  }, timeoutMs);
}
