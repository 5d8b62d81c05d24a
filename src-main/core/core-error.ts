/**
 * The one error type handlers throw. Its message says what happened and what to do next and
 * never contains a token; `toIpcError` turns anything thrown into that shape for the renderer.
 */
import type { IpcErrorCode, IpcErrorPayload } from '../../src-shared/ipc-contract.ts';
import { scrubTokens } from '../../src-shared/local-api/local-api-error.ts';
import { InstallerError } from '../../src-mcp/installers/index.ts';

export class CoreError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(scrubTokens(message));
    this.name = 'CoreError';
  }
}

/** Plain data for IPC: unknown failures become INTERNAL with a scrubbed message. */
export function toIpcError(error: unknown): IpcErrorPayload {
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  // The installers' errors already say what to do; their codes (CLIENT_UNAVAILABLE, ...) pass as is.
  if (error instanceof InstallerError) return { code: error.code, message: scrubTokens(error.message) };
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: 'INTERNAL',
    message: scrubTokens(
      `Something went wrong in Roam Companion: ${detail}. Try again; if it persists, restart the app.`,
    ),
  };
}
