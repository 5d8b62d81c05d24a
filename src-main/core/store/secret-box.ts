/** Encrypts tokens at rest: Electron's safeStorage in the app, a file-keyed box in the preview/tests. */
export interface SecretBox {
  /** e.g. 'keychain', 'dpapi', 'gnome_libsecret', 'basic_text' (Linux fallback: warn the user). */
  readonly backend: string;
  encrypt(plain: string): Promise<Uint8Array>;
  decrypt(cipher: Uint8Array): Promise<string>;
}
