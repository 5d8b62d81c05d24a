/**
 * Remote access for the tray (Settings > Remote access) and the CLI: waiting sign-ins, their
 * answers, the connections, the switch (src-mcp/remote/remote-access.ts). The public entry.
 */
export {
  RemoteAccess,
  decisionOf,
  type ConnectionInfo,
  type GraphChoice,
  type RequestInfo,
} from './remote-access.ts';
export { parsePublicUrl } from './remote-config.ts';
export { RemoteStoreError } from './remote-store.ts';
