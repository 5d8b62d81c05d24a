// A reference for cold start: the MCP SDK roam-mcp bundles (v2, both protocol eras through
// serveStdio) answering the opening request with no tools and no roam-mcp code. bench/run-all.ts
// bundles it like the bin (esbuild, minified, the same Node shim) to show how much of roam-mcp's
// start-up is the SDK itself.
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

serveStdio(() => new Server({ name: 'sdk-only', version: '0.0.0' }, { capabilities: { tools: {} } }));
