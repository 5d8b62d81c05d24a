// A second reference for cold start: the MCP SDK's own Server answering `initialize`, with no
// tools and no roam-mcp code. bench/mcp-cold-start-and-overhead.ts bundles it like the bin
// (esbuild, minified) to show how much of roam-mcp's start-up is the SDK itself.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new Server({ name: 'sdk-only', version: '0.0.0' }, { capabilities: { tools: {} } });
await server.connect(new StdioServerTransport());
