/**
 * Chooses the process's role. `--mcp`: an AI client launched us as its MCP server (headless,
 * mcp-mode.ts). Otherwise: the tray app (tray-app.ts).
 */
import { runMcpMode } from './mcp-mode.ts';
import { runTrayApp } from './tray-app.ts';

export function isMcpMode(argv: readonly string[]): boolean {
  return argv.includes('--mcp');
}

export function main(argv: readonly string[]): Promise<void> {
  return isMcpMode(argv) ? runMcpMode() : runTrayApp(argv);
}
