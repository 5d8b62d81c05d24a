/**
 * A config that will hold one of our keys is narrowed to its owner's bits, whatever its mode was,
 * and the outcome and the preview say from what to what; a file without a key keeps its mode; on
 * Windows, where modes mean nothing, nothing is claimed.
 */
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { install, previewChange } from '../../../src-mcp/installers/installer.ts';
import { linuxOptions, modeOf, tempHomeForEachTest, windowsOptions, writeConfig } from './helpers.ts';

const t = tempHomeForEachTest();
const http = { url: 'http://127.0.0.1:39017/mcp', key: 'roam-mcp-key-abcdefghijklmnopqrstuvwxyz012345' };
const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');

it.each([
  [0o644, 0o600],
  [0o640, 0o600],
  [0o666, 0o600],
  [0o604, 0o600],
  [0o700, 0o700],
])('a %o file that will hold a key becomes %o, and says so', async (from, to) => {
  await writeConfig(cursorFile(), '{ "mcpServers": {} }\n');
  await chmod(cursorFile(), from);
  const preview = await previewChange('cursor', 'install', { ...linuxOptions(t), http });
  const narrowed = from === to ? undefined : { from, to };
  expect(preview.modeNarrowed).toEqual(narrowed);
  expect(await modeOf(cursorFile())).toBe(from);
  const outcome = await install('cursor', { ...linuxOptions(t), http });
  expect(outcome.modeNarrowed).toEqual(narrowed);
  expect(await modeOf(cursorFile())).toBe(to);
});

it('a stdio entry holds no key: the file keeps its mode', async () => {
  await writeConfig(cursorFile(), '{ "mcpServers": {} }\n');
  await chmod(cursorFile(), 0o644);
  const outcome = await install('cursor', linuxOptions(t));
  expect(outcome.modeNarrowed).toBeUndefined();
  expect(await modeOf(cursorFile())).toBe(0o644);
});

it('a key another entry of ours holds counts too: the file is narrowed on a stdio install', async () => {
  await writeConfig(
    cursorFile(),
    `{ "mcpServers": { "mine": { "url": "${http.url}", "headers": { "Authorization": "Bearer ${http.key}" } } } }\n`,
  );
  await chmod(cursorFile(), 0o644);
  expect((await install('cursor', linuxOptions(t))).modeNarrowed).toEqual({ from: 0o644, to: 0o600 });
});

it('on Windows no mode is claimed: the profile’s ACLs decide', async () => {
  const file = path.join(t.home, '.cursor', 'mcp.json');
  await writeConfig(file, '{ "mcpServers": {} }\n');
  const outcome = await install('cursor', { ...windowsOptions(t), http });
  expect(outcome.modeNarrowed).toBeUndefined();
});
