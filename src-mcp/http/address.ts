/** Where the HTTP server may listen: this machine only, at a fixed port unless told otherwise. */

/** Fixed, so a client's config written before the server starts still finds it. */
export const DEFAULT_PORT = 39017;

export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

export function notLoopback(host: string): string {
  return `--host ${host} is not a loopback address: roam-mcp serves only this machine (use 127.0.0.1, localhost or ::1).`;
}
