/**
 * Registers one ipcMain handler per contract channel through a single wrapper that checks the
 * sender frame is our own renderer page, then runs the core's (zod-validating) handler. Results
 * and errors cross as `{ok, result}` / `{ok: false, error}` so the code survives the bridge.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { eventChannels, requestChannels } from '../../src-shared/constants.ts';
import type { IpcErrorPayload } from '../../src-shared/ipc-contract.ts';
import { toIpcError } from '../core/core-error.ts';
import type { TrayCore } from '../core/tray-core.ts';

export type IpcReply = { ok: true; result: unknown } | { ok: false; error: IpcErrorPayload };

/** Only our own page (`rendererUrl`: the file URL of the bundled index.html), never a foreign frame. */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'senderFrame'>,
  rendererUrl: string,
): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && url.split(/[?#]/)[0] === rendererUrl;
}

export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle'>,
  core: TrayCore,
  rendererUrl: string,
): void {
  for (const channel of requestChannels) {
    ipcMain.handle(channel, async (event, input: unknown): Promise<IpcReply> => {
      if (!isTrustedSender(event, rendererUrl)) {
        return {
          ok: false,
          error: {
            code: 'FORBIDDEN_SENDER',
            message: `Refused '${channel}' from a page that is not Roam Companion's.`,
          },
        };
      }
      try {
        return { ok: true, result: await core.handlers[channel](input) };
      } catch (error) {
        return { ok: false, error: toIpcError(error) };
      }
    });
  }
}

/** Forwards every core event to the window while it exists; returns the unsubscribe. */
export function forwardEvents(core: TrayCore, target: () => WebContents | undefined): () => void {
  const offs = eventChannels.map((event) =>
    core.on(event, (payload) => {
      const contents = target();
      if (contents && !contents.isDestroyed()) contents.send(event, payload);
    }),
  );
  return () => offs.forEach((off) => off());
}
