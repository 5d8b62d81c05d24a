/** Roam Desktop's Local API, for Node: the MCP server, the connect CLI and the tray core. */
export * from './local-api-client.ts';
export * from './local-api-error.ts';
export * from './action-scopes.ts';
export * from './token-request-refusals.ts';
export { portFilePath, readPort } from './port-file.ts';
