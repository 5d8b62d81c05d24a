/**
 * Settings > Upload folders: a folder the person adds must be one file_upload can use, said in a
 * person's words when it is not (it is typed: the tray has no folder picker). Folders already in
 * the list are not checked again, so one removed from disk can still be taken off the list.
 */
import { stat } from 'node:fs/promises';
import { CoreError } from '../core-error.ts';

const isAbsolute = (folder: string) =>
  folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || folder.startsWith('\\\\');

const examples: Partial<Record<NodeJS.Platform, string>> = {
  darwin: '/Users/you/Pictures',
  win32: 'C:\\Users\\you\\Pictures',
};

/** @throws CoreError INVALID_INPUT naming the first folder of `folders` that cannot be added. */
export async function checkAddedUploadFolders(
  folders: readonly string[],
  current: readonly string[],
  platform: NodeJS.Platform,
): Promise<void> {
  for (const folder of folders.filter((f) => !current.includes(f))) {
    const refuse: (why: string) => never = (why) => {
      throw new CoreError('INVALID_INPUT', `'${folder}' ${why}`);
    };
    if (!isAbsolute(folder))
      refuse(
        `is not a whole path, so it was not added: type the folder's full path, like ${examples[platform] ?? '/home/you/Pictures'}.`,
      );
    const hidden = folder.split(/[\\/]/).find((part) => part.startsWith('.'));
    if (hidden)
      refuse(
        `is in a hidden folder (${hidden}), so it was not added: agents never read hidden files or folders. Choose another folder.`,
      );
    const found = await stat(folder).catch((error: NodeJS.ErrnoException) => error.code ?? 'EIO');
    if (found === 'ENOENT' || found === 'ENOTDIR')
      refuse(
        'does not exist on this computer, so it was not added. Check the path (copy it from your file manager) and add it again.',
      );
    if (typeof found === 'string')
      refuse(
        `could not be opened (${found}), so it was not added. Check that you can open it, then add it again.`,
      );
    if (!found.isDirectory())
      refuse('is a file, not a folder, so it was not added: add the folder it is in.');
  }
}
