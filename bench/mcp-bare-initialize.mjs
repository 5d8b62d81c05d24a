// The floor for cold start: a bare node process that answers MCP `initialize` by hand, with no
// SDK, no zod, no config. roam-mcp's cold start is compared against this.
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method !== 'initialize') return;
  const result = {
    protocolVersion: message.params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: 'bare', version: '0.0.0' },
  };
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
});
