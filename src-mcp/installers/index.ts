/**
 * Client installers: connect Claude Desktop, Cursor, VS Code and Claude Code to Roam Companion.
 * The public entry for everything outside src-mcp (the tray core, the demo).
 */
export { InstallerError } from './installer-error.ts';
export type { InstallerOptions, Launcher } from './installer-options.ts';
export { install, keyBehind, listClients, previewChange, uninstall } from './installer.ts';
export { lineDiff } from './line-diff.ts';
export { claudeCodeAddCommand, claudeCodeHeadersPath, writeClaudeCodeHeaders } from './claude-code.ts';
export { clientSpec } from './client-catalogue.ts';
export { entryHoldsKey, rotateKey, type KeyRotation } from './key-rotation.ts';
