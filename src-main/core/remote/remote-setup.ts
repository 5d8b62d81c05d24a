/**
 * What the tray keeps of remote access (docs/tray.md, "Remote access"): whether it serves the
 * tunnel's listener, the public URL, and the loopback port the tunnel points at. The port is kept
 * once chosen, so a restart comes back where the person's tunnel points. The rest (sign-ins,
 * connections, the switch every process reads) is the server's, in the data folder.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { writeFileAtomic } from '../../../src-shared/node/atomic-write.ts';

export const REMOTE_SETUP_FILE = 'remote-access.json';

export interface RemoteSetup {
  on: boolean;
  publicUrl?: string;
  port?: number;
}

export interface RemoteSetupFile {
  read(): Promise<RemoteSetup>;
  write(setup: RemoteSetup): Promise<void>;
}

const isPort = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536;

export function remoteSetupFile(storeDir: string): RemoteSetupFile {
  const file = path.join(storeDir, REMOTE_SETUP_FILE);
  return {
    async read() {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      let parsed: Partial<RemoteSetup> = {};
      try {
        parsed = text === undefined ? {} : (JSON.parse(text) as Partial<RemoteSetup>);
      } catch {
        // A damaged file means off: remote access never turns itself on from a guess.
      }
      return {
        on: parsed.on === true && typeof parsed.publicUrl === 'string' && isPort(parsed.port),
        ...(typeof parsed.publicUrl === 'string' ? { publicUrl: parsed.publicUrl } : {}),
        ...(isPort(parsed.port) ? { port: parsed.port } : {}),
      };
    },
    write: (setup) => writeFileAtomic(file, `${JSON.stringify(setup, null, 2)}\n`, 0o600),
  };
}

/** A loopback port free now: the one the tunnel is told to point at from then on. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
