/**
 * Global setup of the `e2e (Chromium)` project (vitest.config.ts): one browser for the run's
 * browser tests, launched only when one of them is queued and closed after the last. Debian's
 * Chromium, never a downloaded browser; the flags keep it off the network this machine closes
 * (docs/ui.md).
 */
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
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
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
