/** One tray per user: a second launch hands its argv (deep links) to the first and quits. */
import type { App } from 'electron';

/** Returns false when another instance already runs (this one should quit). */
export function acquireSingleInstance(
  app: Pick<App, 'requestSingleInstanceLock' | 'on'>,
  onSecondInstance: (argv: string[]) => void,
): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', (_event, argv) => onSecondInstance(argv));
  return true;
}
