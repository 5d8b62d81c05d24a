/** Why an installer refused or failed; the tray maps it to an IPC error payload as is. */
export type InstallerErrorCode =
  /** The client isn't installed (its config folder doesn't exist). */
  | 'CLIENT_UNAVAILABLE'
  /** The client's config file can't be parsed or doesn't have the expected shape. */
  | 'CONFIG_INVALID'
  /** The client (Claude Code) is set up by a command the user runs, not by a file we write. */
  | 'MANUAL_SETUP'
  /** Reading or writing the config file failed (permissions, disk full...). */
  | 'IO_FAILED';

/**
 * An error whose message says what happened and what to do next, and never contains a token or
 * the config file's content (only its path and a position).
 */
export class InstallerError extends Error {
  override readonly name = 'InstallerError';
  constructor(
    readonly code: InstallerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
