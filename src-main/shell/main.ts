// Electron entry point (dist/main/main.mjs): everything else is in app-mode.ts and below.
import { main } from './app-mode.ts';
import { trayLogger } from '../core/tray-log.ts';

void main(process.argv).catch((error: Error) => {
  trayLogger()(error.message);
  process.exit(1);
});
