/**
 * The yardsticks of per-call overhead (bench/run-all.ts, bench/call-overhead.ts): the Local API
 * requests a tool call made, sent again without roam-mcp —
 * - `replayDirect`: from this process (which also hosts the emulator: no process hop);
 * - `startRelay`: by a minimal child process that reads one line (the requests), sends them over
 *   HTTP with a kept-alive agent and writes one line back: the same process hops as a tool call
 *   (client → child over a pipe → emulator over TCP → child → client).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { RecordedRequest } from '../test/emulator/index.ts';

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Sends one recorded Local API request again, directly. */
export function replayDirect(port: number, request: RecordedRequest, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(request.body ?? {});
    const query = new URLSearchParams(request.query).toString();
    const req = http.request(
      `http://127.0.0.1:${port}${request.path}${query ? `?${query}` : ''}`,
      {
        method: request.method,
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const RELAY = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const send = (port, r) => new Promise((resolve, reject) => {
  const payload = JSON.stringify(r.body ?? {});
  const query = new URLSearchParams(r.query).toString();
  const req = http.request('http://127.0.0.1:' + port + r.path + (query ? '?' + query : ''), {
    method: r.method, agent,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), authorization: r.authorization },
  }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject);
  req.end(payload);
});
require('node:readline').createInterface({ input: process.stdin }).on('line', async (line) => {
  const { port, requests } = JSON.parse(line);
  for (const r of requests) await send(port, r);
  process.stdout.write('done\\n');
});
`;

/** The relay process; `replay` resolves when it has sent every request and heard every answer. */
export function startRelay(token: string) {
  const child = spawn(process.execPath, ['-e', RELAY], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<() => void> = [];
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      buffered = buffered.slice(end + 1);
      waiting.shift()?.();
    }
  });
  return {
    pid: child.pid,
    replay(port: number, requests: RecordedRequest[]): Promise<void> {
      const line = JSON.stringify({
        port,
        requests: requests.map((r) => ({ ...r, authorization: `Bearer ${token}` })),
      });
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin!.write(`${line}\n`);
      });
    },
    close: () => child.kill(),
  };
}
