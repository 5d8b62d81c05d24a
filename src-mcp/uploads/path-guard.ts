/**
 * Reading a local file for file_upload, only where the user allowed (docs/reliability.md,
 * Uploads): the file must be a regular file inside an upload folder, with no dot-file or
 * dot-folder anywhere in the path given or the path it resolves to, and not one of the protected
 * paths (./protected-paths.ts). Every refusal of a path, and a path that does not exist, get the
 * same answer: the tool tells nothing about files it may not read.
 *
 * Race-safe: the checks run on the resolved path (which has no symlink in it), the file is opened
 * with O_NOFOLLOW (a symlink swapped in as the last component is not followed; on macOS
 * O_NOFOLLOW_ANY, for every component) and O_NONBLOCK (a FIFO swapped in does not hang), and
 * after opening the descriptor itself is checked: on Linux the kernel's path of the open file
 * (/proc/self/fd) must pass the same checks and name the same inode; elsewhere the path, resolved
 * again, must pass them and its inode must be the descriptor's (dev, ino). On Windows, which has
 * neither, a directory swapped for a junction exactly between those steps remains possible
 * (docs/reliability.md, Uploads).
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export interface AllowedFileOptions {
  /** Absolute folders the user allowed. */
  folders: readonly string[];
  /** Absolute paths never read (files or whole folders). */
  never: readonly string[];
  /** Absolute folders read only through an allowed folder inside them. */
  appData: readonly string[];
  platform?: NodeJS.Platform;
}

/** The one answer for a path that may not be read or does not exist. */
export class PathNotAllowed extends Error {}

/** macOS 11+: fail with ELOOP if any component of the path is a symlink (<sys/fcntl.h>). */
const O_NOFOLLOW_ANY = 0x20000000;
const FLAGS =
  constants.O_RDONLY |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0) |
  (process.platform === 'darwin' ? O_NOFOLLOW_ANY : 0);

const resolved = (p: string) => realpath(p).catch(() => p);

/** Path comparison as the platform's usual file system does it. */
function comparer(platform: NodeJS.Platform) {
  const fold = platform === 'darwin' || platform === 'win32';
  const key = (p: string) => (fold ? p.toLowerCase() : p);
  return (child: string, parent: string) => {
    const relative = path.relative(key(parent), key(child));
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };
}

/** A dot-file or dot-folder anywhere in the path (never read, never an upload folder). */
export const hasDotComponent = (p: string) => p.split(/[\\/]/).some((part) => part.startsWith('.'));

const withResolved = async (paths: readonly string[]) => [
  ...paths,
  ...(await Promise.all(paths.map(resolved))),
];

/** The checks every candidate path must pass, with folders and protected paths resolved once. */
export async function pathRules(options: AllowedFileOptions) {
  const isInside = comparer(options.platform ?? process.platform);
  const folders = (await Promise.all(options.folders.map(resolved))).filter((f) => !hasDotComponent(f));
  const never = await withResolved(options.never);
  const appData = await withResolved(options.appData);
  // A file in an app-data root is readable only through an allowed folder inside that root.
  const reachable = (candidate: string, folder: string) =>
    isInside(candidate, folder) &&
    appData.every((root) => !isInside(candidate, root) || isInside(folder, root));
  return {
    folders,
    permits(candidate: string): boolean {
      if (hasDotComponent(candidate)) return false;
      if (never.some((p) => isInside(candidate, p))) return false;
      return folders.some((folder) => reachable(candidate, folder));
    },
  };
}

type Rules = Awaited<ReturnType<typeof pathRules>>;

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** The path the kernel holds for an open descriptor (Linux), or undefined where there is none. */
async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
}

/** After opening: the descriptor is the allowed file we checked, not something swapped in. */
async function confirmDescriptor(handle: FileHandle, given: string, rules: Rules): Promise<Stats> {
  const opened = await handle.stat();
  if (!opened.isFile()) throw new PathNotAllowed();
  const held = (await descriptorPath(handle)) ?? (await realpath(given));
  if (!rules.permits(held)) throw new PathNotAllowed();
  const atPath = await lstat(held);
  if (!atPath.isFile() || !sameFile(atPath, opened)) throw new PathNotAllowed();
  return opened;
}

/**
 * Opens `given` (absolute, already `~`-expanded) for reading if the rules allow it, hands the
 * checked handle and its real path to `read`, and closes it. Throws PathNotAllowed otherwise.
 */
export async function withAllowedFile<T>(
  given: string,
  rules: Rules,
  read: (handle: FileHandle, stats: Stats, realPath: string) => Promise<T>,
): Promise<T> {
  if (hasDotComponent(path.normalize(given))) throw new PathNotAllowed();
  const real = await realpath(given).catch(() => undefined);
  if (real === undefined || !rules.permits(real)) throw new PathNotAllowed();
  const handle = await open(real, FLAGS).catch(() => {
    throw new PathNotAllowed();
  });
  try {
    const stats = await confirmDescriptor(handle, given, rules).catch((error: unknown) => {
      throw error instanceof PathNotAllowed ? error : new PathNotAllowed();
    });
    return await read(handle, stats, real);
  } finally {
    await handle.close();
  }
}
