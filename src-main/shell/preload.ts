/**
 * Exposes `window.roamCompanion`: exactly one method per request channel of the contract and
 * `on` for its events, nothing else (no generic invoke, no ipcRenderer).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { eventChannels, requestChannels, type EventChannel } from '../../src-shared/constants.ts';
import type { RoamCompanionApi } from '../../src-shared/ipc-contract.ts';
import type { IpcReply } from './ipc-registration.ts';

export function buildApi(): RoamCompanionApi {
  const api: Record<string, unknown> = {};
  for (const channel of requestChannels) {
    api[channel] = async (input: unknown) => {
      const reply = (await ipcRenderer.invoke(channel, input)) as IpcReply;
      if (reply.ok) return reply.result;
      throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    };
  }
  api.on = (event: EventChannel, listener: (payload: unknown) => void) => {
    if (!eventChannels.includes(event)) throw new Error(`Unknown event '${String(event)}'.`);
    const handler = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(event, handler);
    return () => void ipcRenderer.removeListener(event, handler);
  };
  return api as RoamCompanionApi;
}

contextBridge.exposeInMainWorld('roamCompanion', buildApi());
