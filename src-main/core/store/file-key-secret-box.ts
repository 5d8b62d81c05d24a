/**
 * A SecretBox for tests and the browser preview only: AES-256-GCM with a random key kept in a
 * 0600 file next to the store. Anyone who can read the store dir can read the key, so this is
 * NOT protection for production; the app uses Electron's safeStorage instead.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import type { SecretBox } from './secret-box.ts';

export const PREVIEW_KEY_FILE = 'preview-secret.key';

function loadOrCreateKey(storeDir: string): Buffer {
  const file = path.join(storeDir, PREVIEW_KEY_FILE);
  try {
    const key = readFileSync(file);
    if (key.length === 32) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process created it first: use theirs so both can decrypt.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file);
    throw error;
  }
}

/** Layout: 12-byte IV, 16-byte auth tag, ciphertext. */
export function createFileKeySecretBox(storeDir: string): SecretBox {
  const key = loadOrCreateKey(storeDir);
  return {
    backend: 'preview-file-key',
    async encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), body]));
    },
    async decrypt(data) {
      const buffer = Buffer.from(data);
      const decipher = createDecipheriv('aes-256-gcm', key, buffer.subarray(0, 12));
      decipher.setAuthTag(buffer.subarray(12, 28));
      return Buffer.concat([decipher.update(buffer.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
