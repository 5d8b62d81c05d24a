/**
 * A reason the server cannot start that the person can act on (a port in use, say): the bin
 * prints its message alone, without a stack, and the tray shows it as why its server is down.
 */
export class StartupError extends Error {}
