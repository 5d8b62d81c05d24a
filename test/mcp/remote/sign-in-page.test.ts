/**
 * The remote sign-in page in Debian's Chromium (issue 50's proof), served by the built bin's remote
 * listener: at 420 and 1000 px, light and dark, it names the client and where the answer goes,
 * shows the code `roam-mcp remote requests` shows, has no serious axe violation, reaches its one
 * control by keyboard, grants nothing while it waits, and follows the redirect (code and `iss`)
 * by itself once the person approves at the machine. Its tunnel's address (127.0.0.1 through caddy)
 * is one the bin resolves, so `roam-mcp doctor` can find the public URL reaching it over TLS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../../e2e/axe.ts';
import { launchChromium, type BrowserSession } from '../../e2e/chromium.ts';
import { authorizeUrl, pkce, registerClient } from './oauth-steps.ts';
import { CADDY_MISSING, hasCaddy, REDIRECT, startRemoteWorld, type RemoteWorld } from './remote-world.ts';

let world: RemoteWorld;
let browser: BrowserSession;
let clientId: string;

beforeAll(async () => {
  if (!hasCaddy) return;
  // A tunnel address this machine resolves: the doctor's own check of it can pass.
  world = await startRemoteWorld({ publicHost: '127.0.0.1' });
  browser = await launchChromium();
  clientId = await registerClient(fetch, world.served.remote, 'Page <b>Client</b>');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const sizes = [
  [420, 'light'],
  [1000, 'dark'],
  [420, 'dark'],
  [1000, 'light'],
] as const;

describe.skipIf(!hasCaddy)(hasCaddy ? 'the remote sign-in page in Chromium' : CADDY_MISSING, () => {
  it.each(sizes)(
    'at %i px, %s: shows who and where, waits, then returns with code and iss',
    async (width, scheme) => {
      const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: scheme });
      const returned: string[] = [];
      await page.route('http://127.0.0.1:9/**', async (route) => {
        returned.push(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' });
      });
      const { challenge } = pkce();
      await page.goto(
        authorizeUrl(world.served.remote, {
          client_id: clientId,
          redirect_uri: REDIRECT,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: `s-${width}-${scheme}`,
        }),
      );
      await expect(page.locator('h1').textContent()).resolves.toBe('Approve at your computer');
      await expect(page.locator('#host').textContent()).resolves.toBe('127.0.0.1:9');
      // The client's name is its own claim: shown as text, marked unverified.
      await expect(page.locator('main strong').first().textContent()).resolves.toBe('Page <b>Client</b>');
      await expect(page.getByText('unverified').isVisible()).resolves.toBe(true);
      const listed = JSON.parse((await world.bin(['remote', 'requests', '--json'])).stdout) as {
        requests: Array<{ id: string; code: string }>;
      };
      const id = await page.locator('input[name="request"]').getAttribute('value');
      const request = listed.requests.find((r) => r.id === id)!;
      await expect(page.locator('.code').textContent()).resolves.toBe(request.code);
      expect(await seriousViolations(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).toBe(false);
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
        'I answered: continue',
      );
      expect(returned).toEqual([]);
      expect((await world.bin(['remote', 'approve', request.id])).code).toBe(0);
      await page.waitForURL(/127\.0\.0\.1:9\/callback/, { timeout: 20_000 });
      const back = new URL(returned[0]!);
      expect(back.searchParams.get('code')).toBeTruthy();
      expect(back.searchParams.get('iss')).toBe(world.publicUrl);
      expect(back.searchParams.get('state')).toBe(`s-${width}-${scheme}`);
      await page.close();
    },
  );

  it('roam-mcp doctor: the public URL reaches this server over TLS', async () => {
    const ran = await world.bin(['doctor', '--json']);
    const report = JSON.parse(ran.stdout) as {
      checks: Array<{ section: string; name: string; status: string; detail: string }>;
    };
    const tunnel = report.checks.find((c) => c.section === 'remote' && c.name === 'public URL');
    expect(tunnel).toMatchObject({ status: 'ok', detail: `${world.publicUrl} reaches this server over TLS` });
  });
});
