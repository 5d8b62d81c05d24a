/**
 * file_upload's `filePath`: the bytes of a file the user allowed (./path-guard.ts), or one
 * ToolError. The folders come from ./upload-folders.ts (the server's), the never-read paths from
 * ./protected-paths.ts plus what the config sources named.
 */
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../contract/tool-errors.ts';
import { PathNotAllowed, pathRules, withAllowedFile } from './path-guard.ts';
import { protectedPaths } from './protected-paths.ts';
import { expandFolder, NO_UPLOAD_FOLDER, type UploadFolders } from './upload-folders.ts';

export interface LocalFileOptions {
  /** What the user allowed (the server's `ctx.uploadFolders`). */
  allowed: UploadFolders;
  home: string;
  env: NodeJS.ProcessEnv;
  maxBytes: number;
}

const refuse = (message: string) => new ToolError('INVALID_PARAMS', message, { field: 'filePath' });
const mb = (bytes: number) => {
  const value = bytes / 1024 / 1024;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
};

async function readBounded(handle: FileHandle, size: number, filePath: string, maxBytes: number) {
  const tooLarge = (what: string) =>
    refuse(`'${filePath}' is ${what}; files up to ${mb(maxBytes)} can be uploaded.`);
  if (size > maxBytes) throw tooLarge(mb(size));
  const bytes = await handle.readFile();
  // The file may have grown since fstat.
  if (bytes.length > maxBytes) throw tooLarge(`over ${mb(maxBytes)}`);
  return bytes;
}

export async function readUploadFile(
  filePath: string,
  options: LocalFileOptions,
): Promise<{ bytes: Buffer; filename: string }> {
  const expanded = expandFolder(filePath, options.home);
  if (!expanded) throw refuse(`filePath must be absolute (or start with ~/), got '${filePath}'.`);
  const allowed = options.allowed.current();
  const fixed = protectedPaths(options.home, options.env);
  const rules = await pathRules({
    folders: allowed.folders,
    never: [...fixed.never, ...allowed.protectedPaths],
    appData: fixed.appData,
  });
  if (rules.folders.length === 0)
    throw new ToolError('UPLOAD_FOLDER_NOT_SET', NO_UPLOAD_FOLDER, { field: 'filePath' });
  try {
    return await withAllowedFile(expanded, rules, async (handle, stats, real) => ({
      bytes: await readBounded(handle, stats.size, filePath, options.maxBytes),
      filename: path.basename(real),
    }));
  } catch (error) {
    if (!(error instanceof PathNotAllowed)) throw error;
    throw refuse(
      `'${filePath}' cannot be uploaded: file_upload reads only existing files inside the folders the user allowed for uploads (${rules.folders.join(', ')}), ` +
        "never dot-files, dot-folders or Roam Companion's own files. Check the path, or ask the user to put the file in one of those folders.",
    );
  }
}
