/**
 * The data folder (change journal) of a preview or demo: inside its temp HOME, so what its agents
 * change is shown and undone there and removed with it, never mixed with this machine's journal.
 * The demo's `--mcp` stand-in hands the same folder to its roam-mcp child.
 */
import path from 'node:path';

export function previewDataDir(home: string): string {
  return path.join(home, '.roam-companion-data');
}
