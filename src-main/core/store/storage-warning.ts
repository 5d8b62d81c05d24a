/** What the user should know about how tokens are protected on this machine. */
export function storageWarning(backend: string): string | undefined {
  if (backend === 'basic_text') {
    return 'No system keyring was found, so tokens are stored with a fixed, publicly known key (safeStorage basic_text). Install and unlock GNOME Keyring or KWallet, then restart Roam Companion.';
  }
  if (backend === 'preview-file-key') {
    return 'Preview mode: tokens are encrypted with a key file stored next to the settings. Not for real use.';
  }
  return undefined;
}
