// Placeholder entry point; the MCP server issue replaces it.
process.stderr.write('roam-mcp: not implemented yet\n');
process.exit(1);
