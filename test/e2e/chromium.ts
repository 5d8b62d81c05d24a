/**
 * Debian's Chromium for the browser tests, never a downloaded browser; the flags keep it off the
 * network this machine closes (docs/ui.md).
 */
import { chromium, type Browser } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
