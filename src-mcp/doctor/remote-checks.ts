/**
 * Remote access, checked end to end when it was ever set up (docs/remote.md): the server's remote
 * listener answers its metadata on loopback; the public URL answers the same metadata over TLS
 * with the same issuer (so the tunnel reaches this listener and its certificate is trusted); the
 * hosts connections redirect to resolve; the store's file mode. Nothing of a token or its hash.
 */
import { lookup } from 'node:dns/promises';
import { stat } from 'node:fs/promises';
import { dataDirOptions } from '../installers/http-entry.ts';
import { RemoteAccess } from '../remote/index.ts';
import type { Check, DoctorOptions } from './check.ts';

const base = { section: 'remote', name: 'remote access' };

async function issuerAt(url: string, timeoutMs: number): Promise<string | Error> {
  try {
    const response = await fetch(`${url}/.well-known/oauth-authorization-server`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    if (!response.ok) return new Error(`it answered HTTP ${response.status}`);
    return String(((await response.json()) as { issuer?: unknown }).issuer);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return new Error(cause?.code ?? cause?.message ?? (error as Error).message);
  }
}

export async function remoteChecks(options: DoctorOptions): Promise<Check[]> {
  const access = new RemoteAccess({
    ...dataDirOptions(options),
    ...(options.dataDir ? { dir: options.dataDir } : {}),
  });
  const mode = await stat(access.file).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
  if (mode === undefined) return [];
  const status = await access.status();
  const checks: Check[] = [
    {
      section: 'remote',
      name: 'remote access file',
      status: (mode & 0o077) === 0 ? 'ok' : 'fail',
      detail: `${access.file} (mode ${mode.toString(8).padStart(3, '0')})`,
      ...((mode & 0o077) === 0 ? {} : { fix: `chmod 600 ${access.file}` }),
    },
  ];
  if (!status.enabled)
    return [...checks, { ...base, status: 'warn', detail: 'switched off', fix: 'roam-mcp remote on' }];
  if (!status.served)
    return [
      ...checks,
      {
        ...base,
        status: 'skip',
        detail: `not served now (${status.connections} connection(s) kept)`,
        fix: 'roam-mcp serve --http --public-url https://HOST --remote-port N (docs/remote.md).',
      },
    ];
  return [
    ...checks,
    ...(await servedChecks(status.served, options.timeoutMs ?? 5000)),
    ...(await redirectChecks(access)),
  ];
}

async function servedChecks(
  served: { publicUrl: string; local: string },
  timeoutMs: number,
): Promise<Check[]> {
  const local = await issuerAt(served.local, timeoutMs);
  const listener: Check =
    local === served.publicUrl
      ? { ...base, status: 'ok', detail: `listening at ${served.local} for ${served.publicUrl}` }
      : {
          ...base,
          status: 'fail',
          detail: `not answering at ${served.local} (${local instanceof Error ? local.message : `issuer ${local}`})`,
          fix: 'Start the server again (roam-mcp serve --http --public-url …).',
        };
  const publicIssuer = await issuerAt(served.publicUrl, timeoutMs);
  const reached = publicIssuer === served.publicUrl;
  const why =
    publicIssuer instanceof Error ? publicIssuer.message : `another server answers (issuer ${publicIssuer})`;
  const tls = /CERT|SSL|TLS|SELF_SIGNED/i.test(why);
  const tunnel: Check = reached
    ? {
        section: 'remote',
        name: 'public URL',
        status: 'ok',
        detail: `${served.publicUrl} reaches this server over TLS`,
      }
    : {
        section: 'remote',
        name: 'public URL',
        status: 'fail',
        detail: `${served.publicUrl} does not reach this server: ${why}`,
        fix: tls
          ? "The certificate at that address is not trusted: use the tunnel's own https address (docs/remote.md)."
          : `Start the tunnel and point it at ${served.local} (e.g. tailscale funnel --bg ${new URL(served.local).port}).`,
      };
  return [listener, tunnel];
}

async function redirectChecks(access: RemoteAccess): Promise<Check[]> {
  const hosts = [
    ...new Set((await access.connections()).map((c) => new URL(`https://${c.redirectHost}`).hostname)),
  ];
  const checks: Check[] = [];
  for (const host of hosts) {
    const found = await lookup(host).then(
      () => true,
      () => false,
    );
    checks.push({
      section: 'remote',
      name: `callback ${host}`,
      status: found ? 'ok' : 'warn',
      detail: found ? 'resolves' : 'does not resolve from here',
      ...(found ? {} : { fix: 'That client cannot finish a new sign-in until its callback host resolves.' }),
    });
  }
  return checks;
}
