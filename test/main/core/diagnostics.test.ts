/**
 * The tray's "Copy diagnostics" through the real core and real files: main runs roam-mcp doctor's
 * checks against this app's setup (its data folder, its clients) and writes them to the
 * clipboard it was given; the renderer learns only the counts. Without a clipboard (the browser
 * preview) it says how to get the same checks instead.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let core: TrayCore | undefined;

beforeEach(async () => {
  dirs = await tempDirs();
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  await dirs.cleanup();
});

it('puts the checks on the clipboard from main and answers the renderer with the counts only', async () => {
  const clipboard: string[] = [];
  const dataDir = path.join(dirs.home, 'data');
  await mkdir(path.join(dirs.home, '.cursor'), { recursive: true });
  // A secret in another server's entry must not reach the clipboard either.
  await writeFile(
    path.join(dirs.home, '.cursor', 'mcp.json'),
    JSON.stringify({
      mcpServers: { other: { command: 'x', env: { API_KEY: 'sk-live-abcdefghijklmnopqrstuv' } } },
    }),
  );
  ({ core } = startCore(dirs, { dataDir, env: {}, writeClipboard: (text) => void clipboard.push(text) }));
  const answer = await core.handlers['diagnostics:copy'](undefined);
  expect(answer).toMatchObject({ copied: true });
  expect(answer.problems).toBeGreaterThanOrEqual(1); // no Roam Desktop here
  expect(Object.keys(answer).sort()).toEqual(['copied', 'problems', 'warnings']);
  expect(clipboard).toHaveLength(1);
  const text = clipboard[0]!;
  expect(text).toMatch(/^roam-mcp \S+ on /);
  expect(text).toContain('✗ Roam Desktop: nothing answers on port');
  expect(text).toMatch(/- Cursor: not set up/);
  expect(text).not.toContain('sk-live');
});

it('without a clipboard (the browser preview) says how to get the same checks', async () => {
  ({ core } = startCore(dirs, { env: {} }));
  await expect(core.handlers['diagnostics:copy'](undefined)).rejects.toMatchObject({
    code: 'UNAVAILABLE',
    message: expect.stringContaining('roam-mcp doctor --report FILE'),
  });
});
