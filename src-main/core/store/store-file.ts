/**
 * Where the tray's store lives in its folder: `config.json`, written by conf (plain Node) and by
 * electron-store (the app) alike, beside its lock.
 */

/** The file's name without `.json`: conf's `configName`, electron-store's `name`. */
export const STORE_NAME = 'config';
export const STORE_FILE = `${STORE_NAME}.json`;
/** A directory (proper-lockfile's lock) beside the store file. */
export const LOCK_FILE = 'store.lock';
/** The store holds tokens (encrypted): only the user may read it. */
export const STORE_FILE_MODE = 0o600;
