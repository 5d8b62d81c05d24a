/**
 * `roam-mcp install <client> [--dry-run]` / `roam-mcp uninstall <client>`: the same installer
 * the tray's "Connect client" button uses. Returns the process exit code.
 */
export async function runInstallerCli(argv: string[]): Promise<number> {
  process.stderr.write(`roam-mcp ${argv.join(' ')}: client installers are not implemented yet\n`);
  return 1;
}
