/**
 * A bench's helper process (run with tsx, under its own heap limit) spoken to over IPC: `next(type)`
 * resolves with the child's next message of that type.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export function forkBenchChild<Message extends { type: string }>(script: string, maxOldSpaceMb: number) {
  const child = fork(path.join(ROOT, script), [], {
    execArgv: ['--import', 'tsx', `--max-old-space-size=${maxOldSpaceMb}`],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: string) =>
    new Promise<Message>((resolve) => {
      const listener = (message: Message) => {
        if (message.type !== type) return;
        child.off('message', listener);
        resolve(message);
      };
      child.on('message', listener);
    });
  return { child, next };
}
