/**
 * Tool results that are more than a JSON value: `ToolContent` is MCP content as it is (file_get's
 * images), passed through instead of serialising the value; `WithResultMeta` is a value sent as
 * usual plus the result's `_meta`, which hosts hand to an MCP App and never to the model.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

export class ToolContent {
  constructor(readonly content: CallToolResult['content']) {}
}

export class WithResultMeta {
  constructor(
    readonly value: unknown,
    readonly meta: Record<string, unknown>,
  ) {}
}
