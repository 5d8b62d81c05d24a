/**
 * Chooses the process's role. `--mcp`: an AI client launched us as its MCP server (headless,
 * mcp-mode.ts). Otherwise: the tray app (tray-app.ts).
 */
import { removeSecretsInPlace } from '../../src-shared/secret-free-env.ts';
import { runMcpMode } from './mcp-mode.ts';
import { runTrayApp } from './tray-app.ts';

export function isMcpMode(argv: readonly string[]): boolean {
  return argv.includes('--mcp');
}

export function main(argv: readonly string[]): Promise<void> {
  // Neither role needs a token from the environment, and whatever Electron spawns (the handler
  // of a roam:// or web link) inherits this process's environment.
  removeSecretsInPlace(process.env);
  return isMcpMode(argv) ? runMcpMode() : runTrayApp(argv);
}
