/**
 * The production SecretBox: Electron's safeStorage (Keychain on macOS, DPAPI on Windows, the
 * Secret Service or KWallet on Linux), through the async API. On Linux without a keyring,
 * safeStorage falls back to 'basic_text' (a fixed key): the backend name lets the UI warn.
 */
import type { SafeStorage } from 'electron';
import type { SecretBox } from '../core/store/secret-box.ts';

type AsyncSafeStorage = Pick<
  SafeStorage,
  'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'
>;

export function safeStorageBackend(safeStorage: AsyncSafeStorage, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'keychain';
  if (platform === 'win32') return 'dpapi';
  return safeStorage.getSelectedStorageBackend();
}

/** Call after app 'ready'. Throws with what to do when the OS offers no encryption at all. */
export async function createSafeStorageSecretBox(
  safeStorage: AsyncSafeStorage,
  platform: NodeJS.Platform = process.platform,
): Promise<SecretBox> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) {
    throw new Error(
      'Roam Companion cannot encrypt tokens: the system keychain is not available. ' +
        'Unlock or install your keychain (Keychain, GNOME Keyring, KWallet), then restart the app.',
    );
  }
  return {
    backend: safeStorageBackend(safeStorage, platform),
    async encrypt(plain) {
      return new Uint8Array(await safeStorage.encryptStringAsync(plain));
    },
    async decrypt(cipher) {
      return (await safeStorage.decryptStringAsync(Buffer.from(cipher))).result;
    },
  };
}
