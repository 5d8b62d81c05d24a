// Whether dist/ was built from the sources as they are now, so `npx vitest run FILE` builds only
// when an input changed since the last whole build. Decided by modification times: an edit, a
// checkout or an install makes an input newer than the stamp, and the next run builds again.
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** Everything the build reads (scripts/build.mjs and build-apps.mjs), and what decides its output. */
const INPUTS = [
  'src-main',
  'src-mcp',
  'src-renderer',
  'src-shared',
  'scripts',
  'assets',
  'skills',
  'test/emulator',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
const stampOf = (root) => path.join(root, 'dist', '.built-from-sources');

async function newest(entry) {
  const info = await stat(entry).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(entry);
  const times = await Promise.all(children.map((child) => newest(path.join(entry, child))));
  return Math.max(info.mtimeMs, ...times);
}

/** True when the last whole build started after every input's last change. */
export async function builtFromCurrentSources(root = checkout) {
  const stamp = await stat(stampOf(root)).catch(() => undefined);
  if (!stamp) return false;
  const inputs = await Promise.all(INPUTS.map((input) => newest(path.join(root, input))));
  return stamp.mtimeMs >= Math.max(...inputs);
}

/** Records a whole build that started at `startedAt` (ms): an edit during the build is newer. */
export async function markBuilt(startedAt, root = checkout) {
  const stamp = stampOf(root);
  await mkdir(path.dirname(stamp), { recursive: true });
  await writeFile(stamp, "dist/ was built from the sources as they were at this file's modification time.\n");
  const when = new Date(startedAt);
  await utimes(stamp, when, when);
}
