/**
 * The keys of the clients the tray connected over HTTP (docs/clients.md): one per installed
 * client, named after it, made when it is installed (the earlier one revoked once the new entry
 * holds the new key: src-mcp/installers/key-rotation.ts; only hashes are kept). Stored in the
 * data folder the tray's HTTP server reads. When the tray removes or replaces an entry it revokes
 * the key behind it, found by what the entry holds (installers' `keyBehind`), not by this name.
 */
import { KeyStore, type KeyInfo } from '../../../src-mcp/data-folder/index.ts';
import type { KeyView } from '../../../src-shared/ipc-contract.ts';
import type { TrayCoreOptions } from '../tray-core-options.ts';

export function clientKeys(options: Pick<TrayCoreOptions, 'dataDir' | 'env' | 'home'>): KeyStore {
  return new KeyStore({
    ...(options.dataDir ? { dir: options.dataDir } : {}),
    home: options.home,
    ...(options.env ? { env: options.env as NodeJS.ProcessEnv } : {}),
  });
}

/** `usedBy`: the clients whose entries carry it. */
export const toKeyView = (key: KeyInfo, usedBy: readonly string[] = []): KeyView => ({
  name: key.name,
  ...(key.access ? { access: key.access } : {}),
  createdAt: key.createdAt,
  usedBy: [...usedBy],
});
