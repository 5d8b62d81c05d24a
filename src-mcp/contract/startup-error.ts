/**
 * A reason the server cannot start that the person can act on (a port in use, say): the bin
 * prints it without a stack, with what to do; the tray shows the problem alone as why its server
 * is down (the remedy is the command line's).
 */
export class StartupError extends Error {
  constructor(
    readonly problem: string,
    remedy: string,
  ) {
    super(`${problem}. ${remedy}`);
  }
}
