/**
 * The preview server's per-run key (src-main/preview/preview-key.ts) arrives in the page URL's
 * fragment (`#key=…`). The page keeps it for this tab in sessionStorage, so a reload still works,
 * and takes it out of the address bar, so it is not copied or bookmarked with the URL.
 */
const storageKey = 'roam-companion-preview-key';

export function takePreviewKey(win: Window): string | undefined {
  const fromUrl = new URLSearchParams(win.location.hash.slice(1)).get('key');
  if (fromUrl) {
    win.sessionStorage.setItem(storageKey, fromUrl);
    win.history.replaceState(null, '', win.location.pathname + win.location.search);
    return fromUrl;
  }
  return win.sessionStorage.getItem(storageKey) ?? undefined;
}
