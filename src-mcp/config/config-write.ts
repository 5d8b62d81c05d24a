/**
 * Every write to a graph config file (token write-back by roam-mcp servers, `roam-mcp connect`)
 * is a read-modify-write under the file lock, and respects the file as the user left it: the
 * mode is kept (new files 0600), a symlink is followed (dotfile managers), and anything we cannot
 * take as ours is refused rather than replaced (docs/reliability.md, "File state").
 */
import { access, constants, lstat, realpath, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { withFileLock } from '../../src-shared/node/file-lock.ts';
import { NotRegularFileError, readRegularFile } from '../../src-shared/node/read-regular-file.ts';

export const NEW_CONFIG_MODE = 0o600;

/** The file must not be written as it is: `reason` says why, `fix` what the user can do. */
export class ConfigNotWritableError extends Error {
  override readonly name = 'ConfigNotWritableError';
  constructor(
    readonly reason: string,
    readonly fix: string,
  ) {
    super(`${reason} ${fix}.`);
  }
}

/** The JSON document of a config file: an object, edited as raw JSON so unknown fields survive. */
export type RawConfig = Record<string, unknown>;

/**
 * Where writes to a config path land: the link's target when the path is a symlink, so the
 * rename of an atomic write updates the real file instead of replacing the link. A link to
 * nothing is refused: writing would turn it into a regular file.
 */
export async function configWriteTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const link = await lstat(file).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    throw new ConfigNotWritableError(
      `${file} is a symbolic link to a file that does not exist, so it was left as is.`,
      'Create the file it points to (or remove the link)',
    );
  }
  return file; // Not there yet: it is created where the user pointed.
}

async function readForWrite(target: string): Promise<{ doc: RawConfig; mode: number }> {
  let text: string | undefined;
  try {
    text = await readRegularFile(target);
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      throw new ConfigNotWritableError(`${error.what}, so it was left as is.`, 'Replace it with a JSON file');
    }
    throw error;
  }
  if (text === undefined) return { doc: { version: 1, graphs: [] }, mode: NEW_CONFIG_MODE };
  const mode = (await stat(target)).mode & 0o777;
  const writable =
    (mode & 0o200) !== 0 &&
    (await access(target, constants.W_OK).then(
      () => true,
      () => false,
    ));
  if (!writable) {
    throw new ConfigNotWritableError(
      `${target} is read-only (mode ${mode.toString(8)}), so it was left as is.`,
      `Make it writable (chmod u+w '${target}')`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ConfigNotWritableError(`${target} is not valid JSON, so it was left as is.`, 'Fix the file');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray((doc as RawConfig).graphs)) {
    throw new ConfigNotWritableError(
      `${target} is not a Roam config (expected an object with a "graphs" list), so it was left as is.`,
      'Fix the file',
    );
  }
  return { doc: doc as RawConfig, mode };
}

/** Throws ConfigNotWritableError now if a later write would be refused (before asking Roam). */
export async function assertConfigWritable(file: string): Promise<void> {
  await readForWrite(await configWriteTarget(file));
}

/**
 * Reads `file`, applies `edit` and writes the result, all under the lock, keeping the mode.
 * `edit` may throw to write nothing. Returns what `edit` returned.
 */
export async function editConfigFile<T>(
  file: string,
  edit: (doc: RawConfig) => { doc: RawConfig; result: T },
): Promise<T> {
  const target = await configWriteTarget(file);
  return withFileLock(
    target,
    `${target} is being updated by another process (lock ${target}.lock) for longer than expected, so nothing was written. ` +
      'Try again in a moment.',
    async () => {
      const { doc, mode } = await readForWrite(target);
      const { doc: next, result } = edit(doc);
      await writeFileAtomic(target, `${JSON.stringify(next, null, 2)}\n`, mode);
      return result;
    },
  );
}
