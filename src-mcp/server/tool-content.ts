/**
 * A tool result that is MCP content rather than JSON (file_get's images): the router passes
 * `content` through as it is instead of serialising the value.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

export class ToolContent {
  constructor(readonly content: CallToolResult['content']) {}
}
