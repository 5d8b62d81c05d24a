// The floor for cold start: a bare node process that answers MCP `initialize` (2025 revisions)
// and `server/discover` (2026-07-28) by hand, with no SDK, no zod, no config. roam-mcp's cold
// start is compared against this, request for request.
import { createInterface } from 'node:readline';

const serverInfo = { name: 'bare', version: '0.0.0' };
const answers = {
  initialize: (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo,
  }),
  'server/discover': () => ({
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {} },
    _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
  }),
};

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  const answer = answers[message.method];
  if (!answer) return;
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer(message.params) })}\n`,
  );
});
