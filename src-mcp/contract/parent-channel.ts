/**
 * The IPC channel to the tray app when it spawned us (src-shared/child-ipc.ts): Node's
 * `process.send` (the tray starts us with child_process.fork, src-main/core/clients/mcp-launcher.ts).
 * Config arrives only here, never through argv, env or files.
 */
import {
  CHILD_IPC_ENV,
  parentMessageSchema,
  type ChildMessage,
  type ParentMessage,
} from '../../src-shared/child-ipc.ts';
import { log } from './log.ts';

export interface ParentChannel {
  send(message: ChildMessage): void;
  /** Sends and resolves once it is on its way (before the process exits). */
  sendBeforeExit(message: ChildMessage): Promise<void>;
  onMessage(listener: (message: ParentMessage) => void): void;
  /** The parent went away. */
  onDisconnect(listener: () => void): void;
}

/** The channel when env asks for it and one exists, else undefined (standalone mode). */
export function openParentChannel(env: NodeJS.ProcessEnv): ParentChannel | undefined {
  if (env[CHILD_IPC_ENV] !== '1') return undefined;
  const accept = (listener: (m: ParentMessage) => void) => (raw: unknown) => {
    const parsed = parentMessageSchema.safeParse(raw);
    if (parsed.success) listener(parsed.data);
    else log('warn', 'ignored a malformed message from the tray app');
  };
  if (typeof process.send === 'function') {
    return {
      send: (message) => {
        if (process.connected) process.send?.(message);
      },
      sendBeforeExit: (message) =>
        new Promise<void>((resolve) => {
          if (process.connected && process.send) process.send(message, undefined, {}, () => resolve());
          else resolve();
        }),
      onMessage: (listener) => process.on('message', accept(listener)),
      onDisconnect: (listener) => process.on('disconnect', listener),
    };
  }
  log('warn', `${CHILD_IPC_ENV}=1 but there is no IPC channel to a parent; reading config files instead`);
  return undefined;
}
