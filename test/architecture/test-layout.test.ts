/**
 * test/README.md's rule, checked: a test file below test/mcp, test/main, test/renderer or
 * test/shared sits in a folder that mirrors a source folder, and every other top-level test folder
 * is one of the outside-in folders the rule names.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../harness/mcp-bin.ts';

const MIRRORS: Record<string, string> = {
  mcp: 'src-mcp',
  main: 'src-main',
  renderer: 'src-renderer',
  shared: 'src-shared',
};
const OUTSIDE_IN = [
  'architecture',
  'clients',
  'e2e',
  'emulator',
  'harness',
  'package',
  'reliability',
  'scale',
];

async function testFolders(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true });
  const folders = entries.filter((e) => e.isDirectory() && e.name !== 'fixtures');
  const nested = await Promise.all(folders.map((e) => testFolders(path.join(dir, e.name))));
  const hasTests = entries.some((e) => e.isFile() && /\.test\.tsx?$/.test(e.name));
  return [...(hasTests ? [dir] : []), ...nested.flat()];
}

it('puts every test of a layer in the folder its source has, and names no other top-level folder', async () => {
  const topLevel = (await readdir(path.join(ROOT, 'test'), { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect(topLevel.filter((name) => !MIRRORS[name] && !OUTSIDE_IN.includes(name))).toEqual([]);

  const unmirrored: string[] = [];
  for (const [layer, source] of Object.entries(MIRRORS)) {
    for (const folder of await testFolders(path.join('test', layer))) {
      const mirrored = path.join(source, path.relative(path.join('test', layer), folder));
      const exists = await readdir(path.join(ROOT, mirrored)).then(
        () => true,
        () => false,
      );
      if (!exists) unmirrored.push(`${folder} (no ${mirrored})`);
    }
  }
  expect(unmirrored).toEqual([]);
});
