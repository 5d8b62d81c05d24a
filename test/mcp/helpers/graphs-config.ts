/** Writes `~/.roam-tools.json` with the given graphs (mode 0600, as the product writes it). */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ConfigGraph {
  name: string;
  nickname?: string;
  token?: string;
  accessLevel?: 'read-only' | 'read-append' | 'full';
  type?: 'hosted' | 'offline';
}

export async function writeGraphsConfig(home: string, graphs: ConfigGraph[]): Promise<string> {
  const file = path.join(home, '.roam-tools.json');
  await writeFile(file, JSON.stringify({ version: 1, graphs }), { mode: 0o600 });
  return file;
}
