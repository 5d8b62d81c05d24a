// Electron entry point (dist/main/main.mjs): everything else is in app-mode.ts and below.
import { main } from './app-mode.ts';

void main(process.argv).catch((error: Error) => {
  process.stderr.write(`roam-companion: ${error.message}\n`);
  process.exit(1);
});
