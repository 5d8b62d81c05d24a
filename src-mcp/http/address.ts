/** Where the HTTP server may listen: this machine only, at a fixed port unless told otherwise. */
import { HTTP_DEFAULT_PORT } from '../../src-shared/constants.ts';

export const DEFAULT_PORT = HTTP_DEFAULT_PORT;

export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

export function notLoopback(host: string): string {
  return `--host ${host} is not a loopback address: roam-mcp serves only this machine (use 127.0.0.1, localhost or ::1).`;
}
