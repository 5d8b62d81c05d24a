/**
 * Remote access's fixture: the built bin serving `serve --http --public-url https://roam.test:P
 * --remote-port 0` for a temp HOME with the emulator's Work graph, and Debian's caddy on loopback
 * standing in for the tunnel: one caddy serves client metadata documents over TLS (its local CA,
 * which the bin trusts through NODE_EXTRA_CA_CERTS, a redirect and two hostile documents), started first
 * so the CA exists; a second, sharing its storage and so its CA, terminates TLS for roam.test and
 * proxies to the bin's remote port. The test's own fetch (node:https, redirects never followed)
 * trusts that CA and resolves roam.test to 127.0.0.1: no DNS, no network beyond loopback. Caddy needs fixed ports: they are
 * picked free just before it starts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import dns from 'node:dns';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import https from 'node:https';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { fullDemoGraph } from '../../harness/http-world.ts';
import { binCommand, binEnv, runBin, writeToolsConfig } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

export const PUBLIC_HOST = 'roam.test';
export const REDIRECT = 'http://127.0.0.1:9/callback';
export const hasCaddy = spawnSync('caddy', ['version'], { stdio: 'ignore' }).status === 0;
export const CADDY_MISSING =
  'remote access tests SKIPPED: caddy is not installed (apt install caddy), it plays the tunnel';

export interface Served {
  /** http://127.0.0.1:R, the remote listener the tunnel points at. */
  remote: string;
  /** http://127.0.0.1:H/mcp, the local hub. */
  hub: string;
  stderr(): string;
  stop(): Promise<void>;
}

export interface RemoteWorld {
  home: string;
  emulator: Emulator;
  /** https://roam.test:P, through caddy. */
  publicUrl: string;
  /** https://127.0.0.1:D, where caddy serves client metadata documents (`/client.json`, `/moved`). */
  documents: string;
  served: Served;
  /** fetch that trusts caddy's CA and finds roam.test on loopback. */
  fetch: typeof fetch;
  keys: Record<string, string>;
  bin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Another server on the same HOME (after `served` stopped), reached directly, not through caddy. */
  serve(args: string[], env?: Record<string, string>): Promise<Served>;
  close(): Promise<void>;
}

/** fetch over node:https with caddy's CA, roam.test on loopback, redirects never followed. */
function httpsFetch(ca: () => Promise<string>): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const trusted = await ca();
    return new Promise<Response>((resolve, reject) => {
      const sent = https.request(
        url,
        {
          method: request.method,
          headers: Object.fromEntries(request.headers),
          ca: trusted,
          ...(net.isIP(url.hostname) ? {} : { servername: url.hostname }),
          lookup: ((host: string, options: dns.LookupOptions, callback: unknown) =>
            dns.lookup(host === PUBLIC_HOST ? '127.0.0.1' : host, options, callback as never)) as never,
          signal: request.signal,
        },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one);
          const status = res.statusCode ?? 500;
          const empty = [204, 205, 304].includes(status) || request.method === 'HEAD';
          if (empty) res.resume();
          resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status, headers }));
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  }) as typeof fetch;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function caddyfile(storage: string, sites: string): string {
  return `{
\tadmin off
\tlocal_certs
\tskip_install_trust
\tstorage file_system ${storage}
\tauto_https disable_redirects
\tservers {
\t\tprotocols h1 h2
\t}
}
${sites}`;
}

async function startCaddy(
  dir: string,
  name: string,
  config: string,
  ready: () => Promise<boolean>,
): Promise<ChildProcess> {
  const file = path.join(dir, `${name}.caddyfile`);
  await writeFile(file, config);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    XDG_DATA_HOME: path.join(dir, 'xdg'),
    XDG_CONFIG_HOME: path.join(dir, 'xdgc'),
  };
  const child = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`caddy ${name} exited: ${log.slice(-2000)}`);
    if (await ready().catch(() => false)) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`caddy ${name} did not start: ${log.slice(-2000)}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

function serveBin(home: string, env: Record<string, string>, args: string[]): Promise<Served> {
  const [command, argv] = binCommand(['serve', '--http', '--port', '0', ...args]);
  const child = spawn(command, argv, { env, cwd: home, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const hub = /serving MCP at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      const remote = /remote: \S+ via (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      const wantsRemote = args.includes('--public-url');
      if (hub && (remote || !wantsRemote))
        resolve({ hub, remote: remote ?? '', stderr: () => stderr, stop: () => stop(child) });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
}

export async function startRemoteWorld(
  options: {
    admitLoopback?: boolean;
    /** The tunnel's host name (default roam.test, which only the test's fetch resolves). */
    publicHost?: string;
    /** A second graph, Home (the same demo content), beside Work. */
    home?: boolean;
  } = {},
): Promise<RemoteWorld> {
  const home = await tempDir('roam-remote-');
  const caddyDir = path.join(home, 'caddy');
  const storage = path.join(caddyDir, 'storage');
  const rootCa = path.join(storage, 'pki/authorities/local/root.crt');
  const work = fullDemoGraph('work', 'Work');
  const graphs = options.home ? [work, fullDemoGraph('home', 'Home')] : [work];
  const emulator = await startEmulator({ graphs: graphs.map((g) => g.graph), home });
  const children: ChildProcess[] = [];
  const stops: Array<() => Promise<void>> = [];
  try {
    await writeToolsConfig(
      home,
      graphs.map((g) => g.config),
    );
    const { mkdir } = await import('node:fs/promises');
    await mkdir(caddyDir, { recursive: true });
    const docsPort = await freePort();
    const documents = `https://127.0.0.1:${docsPort}`;
    const doc = JSON.stringify({
      client_id: `${documents}/client.json`,
      client_name: 'Metadata Client',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    // Hostile documents: a script for a redirect; another client's id.
    const scripted = JSON.stringify({
      client_id: `${documents}/scripted.json`,
      client_name: 'Scripted',
      redirect_uris: ['javascript:alert(1)'],
    });
    const impostor = JSON.stringify({ client_id: 'https://claude.ai/oauth/x', redirect_uris: [REDIRECT] });
    const tlsFetch = httpsFetch(() => readFile(rootCa, 'utf8'));
    const plainTls = async (url: string) => {
      const ca = await readFile(rootCa, 'utf8').catch(() => undefined);
      if (!ca) return false;
      return new Promise<boolean>((resolve) => {
        https
          .get(url, { ca }, (res) => {
            res.resume();
            resolve(res.statusCode === 200);
          })
          .on('error', () => resolve(false));
      });
    };
    children.push(
      await startCaddy(
        caddyDir,
        'documents',
        caddyfile(
          storage,
          `${documents} {
\tbind 127.0.0.1
\ttls internal
\trespond /client.json \`${doc}\` 200
\trespond /scripted.json \`${scripted}\` 200
\trespond /impostor.json \`${impostor}\` 200
\tredir /moved /client.json 302
}
`,
        ),
        () => plainTls(`${documents}/client.json`),
      ),
    );
    const env = binEnv(home, {
      ROAM_COMPANION_DATA_DIR: path.join(home, 'data'),
      NODE_EXTRA_CA_CERTS: rootCa,
      ...(options.admitLoopback ? { ROAM_MCP_TEST_CIMD_LOOPBACK: '1' } : {}),
    });
    const keys: Record<string, string> = {};
    const made = await runBin(['key', 'create', 'local-client'], { env, cwd: home });
    if (made.code !== 0) throw new Error(`key create failed: ${made.stderr}`);
    keys['local-client'] = made.stdout.trim();
    const tunnelPort = await freePort();
    const publicUrl = `https://${options.publicHost ?? PUBLIC_HOST}:${tunnelPort}`;
    const served = await serveBin(home, env, ['--public-url', publicUrl, '--remote-port', '0']);
    stops.push(served.stop);
    children.push(
      await startCaddy(
        caddyDir,
        'tunnel',
        caddyfile(
          storage,
          `${publicUrl} {
\tbind 127.0.0.1
\ttls internal
\treverse_proxy ${served.remote.replace('http://', '')}
}
`,
        ),
        async () => (await tlsFetch(`${publicUrl}/.well-known/oauth-authorization-server`)).ok,
      ),
    );
    return {
      home,
      emulator,
      publicUrl,
      documents,
      served,
      fetch: tlsFetch,
      keys,
      bin: (args) => runBin(args, { env, cwd: home }),
      async serve(args, extra = {}) {
        const again = await serveBin(home, { ...env, ...extra }, args);
        stops.push(again.stop);
        return again;
      },
      async close() {
        for (const s of stops) await s().catch(() => {});
        for (const child of children) await stop(child);
        await emulator.close();
        await removeDir(home);
      },
    };
  } catch (error) {
    for (const s of stops) await s().catch(() => {});
    for (const child of children) await stop(child);
    await emulator.close();
    await removeDir(home);
    throw error;
  }
}
