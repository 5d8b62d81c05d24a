/**
 * The browser tests' Chromium. One browser serves every browser test of a run: the
 * `e2e (Chromium)` project's global setup (./chromium-server.ts) launches it, and each file
 * connects with contexts of its own instead of paying a browser's start.
 */
import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
  }
}

/**
 * The run's browser, for one test file. Closing it ends only this file's connection and the
 * contexts it made; the browser stays up for the other files.
 */
export function connectChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) throw new Error('No browser in this run: list the file in CHROMIUM in vitest.config.ts.');
  return chromium.connect(endpoint);
}
