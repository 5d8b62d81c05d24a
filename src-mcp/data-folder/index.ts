/**
 * What the server keeps in the data folder that the tray reads too: the keys of clients that
 * connect over HTTP (the tray makes one per installed client) and the URL files (where a server
 * runs; where the tray serves when it opens at login). The public entry for the tray core.
 */
export { KeyStore, type KeyInfo } from './key-store.ts';
export { readUrlFile, writeAtLoginFile } from './url-file.ts';
