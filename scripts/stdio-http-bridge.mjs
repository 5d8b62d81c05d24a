// A plain HTTP front for the stdio bin, the way a 2026-07-28 client speaks to a server over HTTP:
// every POST carries one JSON-RPC message and a request gets its answer as application/json.
// Stateless, as that revision's HTTP is: each request is served by a bin of its own, so one
// request's era or `_meta` never decides another's. Only for running HTTP test suites
// (scripts/conformance.mjs) against the stdio bin: HTTP's own rules (status codes, headers,
// origins, SSE streams) belong to an HTTP transport, which roam-mcp does not have.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

/** One request through a bin started for it: resolves with the answer carrying the same id. */
function answerOnce({ command, args, env }, message) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line);
      if (answer.id !== message.id) return;
      child.kill('SIGTERM');
      resolve(answer);
    });
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
}

/** Serves `command args` on 127.0.0.1:`port`/mcp; resolves with a close function. */
export async function bridgeStdioToHttp(bin) {
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/mcp')) {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = JSON.parse(body);
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      void answerOnce(bin, message).then((answer) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer));
      });
    });
  });
  await new Promise((resolve) => server.listen(bin.port, '127.0.0.1', resolve));
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}
