import type { RoamCompanionApi } from '../../src-shared/ipc-contract.ts';
import { createHttpBridge } from './http-bridge.ts';
import { takePreviewKey } from './preview-key.ts';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in the browser preview. */
    roamCompanion?: RoamCompanionApi;
  }
}

/** The Electron preload's API when present, else the HTTP bridge to the preview server. */
export function pickBridge(
  options: { onReconnect?(): void; onDisconnect?(): void } = {},
  win: Window = window,
): RoamCompanionApi {
  return (
    win.roamCompanion ??
    createHttpBridge({
      baseUrl: '',
      key: takePreviewKey(win),
      onReconnect: options.onReconnect,
      onDisconnect: options.onDisconnect,
    })
  );
}
