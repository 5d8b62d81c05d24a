/**
 * Client installers: connect Claude Desktop, Cursor, VS Code and Claude Code to Roam Companion.
 * The tray core and the `roam-mcp` CLI import from here only.
 */
export { runInstallerCli, EXIT, type InstallerCliOverrides } from './cli.ts';
export { CLAUDE_CODE_REMOVE_COMMAND, claudeCodeAddCommand } from './claude-code.ts';
export { CLIENTS } from './client-catalog.ts';
export { InstallerError, type InstallerErrorCode } from './installer-error.ts';
export { SERVER_KEY, type InstallerOptions, type Launcher } from './installer-options.ts';
export {
  BACKUP_SUFFIX,
  getClient,
  install,
  listClients,
  previewChange,
  uninstall,
  type ClientAction,
  type ClientChangeResult,
} from './installer.ts';
export { npxLauncherNote, standaloneLauncher } from './launcher.ts';
export { lineDiff } from './line-diff.ts';
export { redactSecrets } from './redact-secrets.ts';
