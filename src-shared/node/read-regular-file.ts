/**
 * Reads a config-like file without ever blocking on something that is not a file: a FIFO, a
 * device or a socket at the path would make a plain read wait forever (before the MCP server
 * even answers `initialize`). Opened non-blocking and checked with fstat on the same handle, so
 * what is read is what was checked.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The path exists but is not a regular file: the message says what it is and what to do. */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  constructor(
    /** "<file> is a named pipe (FIFO), not a regular file" */
    readonly what: string,
  ) {
    super(`${what}, so it was not read. Replace it with a JSON file (or point --config at one).`);
  }
}

function kindOf(info: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  return 'a device or other special file';
}

/** The file's text, or undefined when nothing is at `file`. Throws NotRegularFileError. */
export async function readRegularFile(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new NotRegularFileError(`${file} is ${kindOf(info)}, not a regular file`);
    }
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
