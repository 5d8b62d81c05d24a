/** An error from the bridge, carrying the core's {code, message} (what happened, what to do next). */
export class BridgeError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'BridgeError';
    this.code = code;
  }
}

/** The sentence to show a user for any failure, whichever bridge produced it. */
export function describeError(error: unknown): string {
  if (error instanceof Error && error.message) {
    // Electron prefixes errors crossing ipcRenderer.invoke with this; users need only the cause.
    return error.message.replace(/^Error invoking remote method '[^']+': (\w*Error: )?/, '');
  }
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String((error as { message: unknown }).message);
  }
  return 'Something went wrong. Try again; if it keeps failing, restart Roam Companion.';
}
