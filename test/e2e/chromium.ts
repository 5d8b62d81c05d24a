/**
 * Debian's Chromium for the browser tests, never a downloaded browser; the flags keep it off the
 * network this machine closes (docs/ui.md). One Chromium serves every browser test a worker runs
 * (each start costs about a second of CPU); each caller gets its own contexts, which its `close`
 * closes, so no page, cookie or permission outlives its test file.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** What a test uses of a browser: its own contexts and pages. */
export type BrowserSession = Pick<Browser, 'newContext' | 'newPage' | 'close'>;

let shared: Promise<Browser> | undefined;

function launch(): Promise<Browser> {
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

async function sharedBrowser(): Promise<Browser> {
  const browser = await (shared ??= launch().catch((error: unknown) => {
    shared = undefined;
    throw error;
  }));
  if (browser.isConnected()) return browser;
  shared = undefined; // it crashed or was closed: the next test gets a fresh one
  return sharedBrowser();
}

export async function launchChromium(): Promise<BrowserSession> {
  const browser = await sharedBrowser();
  const contexts = new Set<BrowserContext>();
  const newContext: Browser['newContext'] = async (options) => {
    const context = await browser.newContext(options);
    contexts.add(context);
    return context;
  };
  return {
    newContext,
    newPage: async (options) => (await newContext(options)).newPage(),
    async close() {
      await Promise.all([...contexts].map((context) => context.close()));
      contexts.clear();
    },
  };
}
