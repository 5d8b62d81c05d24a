/**
 * Settings > Remote access in Debian's Chromium, against the preview's real tray core and its real
 * `roam-mcp serve --http` child. With the keyboard alone, at 420 and 1000 px: turning it on with
 * the tunnel's address starts the tunnel's listener on the port the screen names; a chat app
 * registering and signing in through that port (as through the tunnel) appears live with the code
 * its page shows and where its answer goes, and is approved here; its connection appears with its
 * level and is revoked in one keystroke; off asks first, then ends everything. No serious axe
 * violation in either scheme at either size; no token or page secret in anything the page got.
 */
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeUrl, pageFields, pkce, poll as pagePoll, token } from '../mcp/remote/oauth-steps.ts';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { screenshot } from './screenshots.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

const PUBLIC = 'https://roam.example.test';
const REDIRECT = 'https://claude.ai/api/mcp/auth_callback';

let tray: TrayWorld | undefined;
let page: Page;
/** Every answer the page's requests got from the core (its event stream never ends, so it is not read). */
const received: Promise<string>[] = [];
/** What must never reach the page. */
const secrets: string[] = [];

beforeAll(async () => {
  tray = await startTrayWorld({
    prefix: 'tray-remote-',
    preview: { env: {}, httpHub: { port: 0 } },
    beforeLoad: (at) =>
      at.on('response', (response: Response) => {
        if (new URL(response.url()).pathname.startsWith('/ipc/'))
          received.push(response.text().catch(() => ''));
      }),
  });
  ({ page } = tray);
  // The tray's HTTP server serves before the screen is used (a first start takes seconds).
  for (let waited = 0; (await core()['status:get'](undefined)).http?.state !== 'serving'; waited += 100) {
    if (waited > 30_000) throw new Error("the tray's HTTP server did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);

afterAll(async () => {
  await tray?.close();
});

const core = () => tray!.preview.core.handlers;
const listener = async () => `http://127.0.0.1:${(await core()['remote:get'](undefined)).localPort}`;

/** Tabs from the Settings tab until `name` has the focus (with its ring, in view). */
async function tabTo(name: string | RegExp): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).focus();
  for (let step = 0; step < 60; step++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : undefined;
      return {
        name: el.getAttribute('aria-label') ?? label ?? el.textContent?.trim() ?? '',
        ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        inView: box.bottom > 0 && box.top < window.innerHeight,
      };
    });
    if (!focused) break;
    if (typeof name === 'string' ? focused.name !== name : !name.test(focused.name)) continue;
    expect(focused.ring, `focus ring on ${String(name)}`).toBe(true);
    expect(focused.inView, `${String(name)} scrolled into view`).toBe(true);
    return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

/** A chat app registering itself and opening a sign-in through the tunnel's port. */
async function openSignIn(name: string) {
  const base = await listener();
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const { verifier, challenge } = pkce();
  const html = await (
    await fetch(
      authorizeUrl(base, {
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    )
  ).text();
  const code = /aria-label="matching code">([^<]+)</.exec(html)?.[1];
  const fields = pageFields(html);
  secrets.push(fields.secret);
  return { base, clientId, verifier, code: code!, fields };
}

it.each([
  { width: 420, height: 600 },
  { width: 1000, height: 760 },
])(
  'at $width px, the keyboard turns it on, approves a sign-in, revokes it and turns it off',
  async (viewport) => {
    await page.setViewportSize(viewport);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const toggle = page.getByRole('switch', { name: 'Remote access' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);

    // On: the address typed, Enter.
    await tabTo("Your tunnel's public address (https)");
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(PUBLIC);
    await page.keyboard.press('Enter');
    await poll(() => toggle.isChecked(), 30_000).toBe(true);
    const { localPort } = await core()['remote:get'](undefined);
    await page.getByText(`http://127.0.0.1:${localPort}`).waitFor();
    await page.getByText('(answering)').waitFor({ timeout: 30_000 });
    await page.getByText(`Reachable from anywhere at ${PUBLIC}`).waitFor();

    // A sign-in through the tunnel appears live, with its page's code and where the answer goes.
    const asked = await openSignIn('Claude');
    const card = page.getByRole('list', { name: 'Sign-ins waiting' }).getByRole('listitem');
    await card.getByText(asked.code, { exact: true }).waitFor();
    // Every screen says it is on and that a sign-in waits; Show brings the person here.
    await page.getByRole('tab', { name: 'Graphs' }).click();
    await page.getByRole('status').filter({ hasText: '1 sign-in waits for you' }).waitFor();
    await tabTo('Show remote access');
    await page.keyboard.press('Enter');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Remote access');
    expect(await page.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    await card.getByText('unverified', { exact: true }).waitFor();
    expect(await card.locator('.remote-host').innerText()).toBe('claude.ai');
    await screenshot(page, 'remote-access-waiting', page.locator('section.remote-access'));
    expect(await violationsEverywhere(page)).toEqual([]);

    await card.getByLabel(/What its chats may do/).selectOption('read-only');
    await tabTo('Approve Claude');
    await page.keyboard.press('Enter');
    await page.getByText('No sign-in is waiting', { exact: false }).waitFor();

    // The page finishes; the app's code becomes a connection, listed with its level.
    const answer = await pagePoll(fetch, asked.base, asked.fields);
    expect(answer.status).toBe('done');
    const exchanged = await token(fetch, asked.base, {
      grant_type: 'authorization_code',
      code: new URL(answer.location!).searchParams.get('code')!,
      client_id: asked.clientId,
      redirect_uri: REDIRECT,
      code_verifier: asked.verifier,
    });
    expect(exchanged.status).toBe(200);
    secrets.push(exchanged.body.access_token!, exchanged.body.refresh_token!);
    const row = page.getByRole('list', { name: 'Remote connections' }).getByRole('listitem');
    await row.getByText('Signed in for claude.ai · at most Read only').waitFor();
    await page.getByText('1 connection live.').waitFor();
    await screenshot(page, 'remote-access-connected', page.locator('section.remote-access'));
    expect(await violationsEverywhere(page)).toEqual([]);

    await tabTo('Revoke Claude');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Remote connections' }).waitFor({ state: 'detached' });
    expect((await core()['remote:get'](undefined)).connections).toEqual([]);

    // Off asks first (focus on Cancel), then ends what waits.
    await openSignIn('ChatGPT');
    await page.getByText('ChatGPT asks to connect', { exact: false }).waitFor();
    await tabTo('Remote access');
    await page.keyboard.press('Space');
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Turn off remote access?').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await poll(() => toggle.isChecked(), 30_000).toBe(false);
    expect(await core()['remote:get'](undefined)).toMatchObject({ on: false, waiting: [], connections: [] });
    expect(await page.getByText('ChatGPT asks to connect', { exact: false }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Show remote access' }).count()).toBe(0);
    expect(await violationsEverywhere(page)).toEqual([]);
  },
  120_000,
);

it('no answer the page received holds a token or a sign-in page’s secret', async () => {
  const bodies = await Promise.all(received);
  expect(bodies.some((body) => body.includes('"waiting"'))).toBe(true);
  for (const body of bodies) for (const secret of secrets) expect(body).not.toContain(secret);
  const text = await page.locator('body').innerText();
  for (const secret of secrets) expect(text).not.toContain(secret);
});
