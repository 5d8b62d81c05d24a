/**
 * The page a remote sign-in opens (through the tunnel). It grants nothing: it says who asks and
 * where the answer goes, shows the matching code, and waits for the person to answer at their
 * machine; then it follows the redirect. It asks with a secret only it holds (POSTed, never in a
 * URL). No outside resource, a nonce'd script, no framing (CSP), nothing cached.
 */
import { randomBytes } from 'node:crypto';
import type { WaitingRequest } from './remote-store.ts';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export interface Page {
  status: number;
  html: string;
  headers: Record<string, string>;
}

function headersFor(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  };
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f;background:#fff}
.code{font:700 2rem/1.2 ui-monospace,monospace;letter-spacing:.15em}.host{font-weight:700;font-size:1.2rem;word-break:break-all}
.box{border:1px solid #bbb;border-radius:.5rem;padding:1rem;margin:1rem 0}.warn{color:#b3261e;font-weight:600}
button{font:inherit;padding:.4rem 1rem}
@media (prefers-color-scheme:dark){body{color:#e8e8ec;background:#17171a}.box{border-color:#555}.warn{color:#ffb4ab}}`;

function layout(title: string, body: string, status: number): Page {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style nonce="${nonce}">${STYLE}</style></head><body><main>${body.replace(/__NONCE__/g, nonce)}</main></body></html>`;
  return { status, html, headers: headersFor(nonce) };
}

export function waitingPage(request: WaitingRequest, pageSecret: string): Page {
  const host = new URL(request.redirectUri).host;
  const vouching = request.verified ? new URL(request.clientId).host : '';
  const elsewhere =
    request.verified && vouching !== new URL(request.redirectUri).hostname && vouching !== host
      ? ` <span class="warn">but its answer goes to another host</span>`
      : '';
  const who = request.verified
    ? `<p><strong><bdi>${escape(request.clientName)}</bdi></strong> (its address vouches for it: ${escape(vouching)})${elsewhere}</p>`
    : `<p><strong><bdi>${escape(request.clientName)}</bdi></strong> <span class="warn">unverified: this name is the client's own claim</span></p>`;
  const body = `<h1>Approve at your computer</h1>${who}
<div class="box"><p>The answer goes to</p><p class="host" id="host">${escape(host)}</p>
<p>If you did not start this, or you do not recognise that address, deny it.</p></div>
<div class="box"><p>Your computer shows the same request with this code:</p><p class="code" aria-label="matching code">${escape(request.code)}</p>
<p>Approve it in Roam Companion (Settings → Remote access), or run <code>roam-mcp remote approve ${escape(request.id)}</code>.
Nothing here approves it.</p></div>
<p role="status" id="status">Waiting for your answer…</p>
<form method="post" action="/authorize/continue"><input type="hidden" name="request" value="${escape(request.id)}">
<input type="hidden" name="secret" value="${escape(pageSecret)}"><button type="submit">I answered: continue</button></form>
<script nonce="__NONCE__">(function(){var b=JSON.stringify({request:${JSON.stringify(request.id)},secret:${JSON.stringify(pageSecret)}});
function ask(){fetch('/authorize/status',{method:'POST',headers:{'content-type':'application/json'},body:b}).then(function(r){return r.json()}).then(function(a){
if(a.status==='done'){document.getElementById('status').textContent='Answered. Returning to the app…';location.assign(a.location);}
else if(a.status==='gone'){document.getElementById('status').textContent='This sign-in expired or was answered elsewhere. Start again from the app.';}
else setTimeout(ask,2000);}).catch(function(){setTimeout(ask,5000)});}ask();})();</script>`;
  return layout('Approve at your computer: Roam Companion', body, 200);
}

export function messagePage(status: number, message: string): Page {
  return layout(
    'Roam Companion: remote sign-in',
    `<h1>This sign-in cannot go on</h1><p>${escape(message)}</p>`,
    status,
  );
}
