/**
 * Every tool and resource, in the order tools/list shows them (graph management, content, daily
 * notes, comments, discovery, shortcuts, desktop UI, extensions, files, batch edits, navigation),
 * and the tools/list form of a tool. A new group of tools is one import line here; a new tool in
 * an existing group changes nothing here. Loaded after the MCP handshake (src-mcp/server.ts), so
 * building the schemas never delays the initialize answer.
 */
import type { Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { navigationResources, navigationTools } from './navigation/index.ts';
import { inputShape, readOnlyHint, type ResourceDefinition, type ToolDefinition } from './tool-definition.ts';
import { changeTools } from './changes/tools.ts';
import { batchEditTools } from './tools/batch-edits.ts';
import { commentTools } from './tools/comments.ts';
import { contentTools } from './tools/content-tools.ts';
import { dailyNoteTools } from './tools/daily-notes.ts';
import { desktopUiTools } from './tools/desktop-ui.ts';
import { discoveryTools } from './tools/discovery.ts';
import { extensionTools } from './tools/extensions.ts';
import { fileTools } from './tools/files.ts';
import { graphTools } from './tools/graph-tools.ts';
import { shortcutTools } from './tools/shortcuts.ts';

export const tools: readonly ToolDefinition[] = [
  ...graphTools,
  ...contentTools,
  ...dailyNoteTools,
  ...commentTools,
  ...discoveryTools,
  ...shortcutTools,
  ...desktopUiTools,
  ...extensionTools,
  ...fileTools,
  ...batchEditTools,
  ...changeTools,
  ...navigationTools,
];

export { setIndexStaleness } from './navigation/index.ts';

export const resources: readonly ResourceDefinition[] = navigationResources;

/** A tool as tools/list shows it. */
export function listedTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonSchema(inputShape(tool), 'input') as Tool['inputSchema'],
    ...(tool.outputSchema
      ? { outputSchema: toJsonSchema(tool.outputSchema, 'output') as Tool['outputSchema'] }
      : {}),
    annotations: { title: tool.title, readOnlyHint: readOnlyHint(tool), ...tool.annotations },
  };
}

/**
 * JSON Schema for tools/list, kept compact because every chat pays for it in context: no
 * `$schema` line, no ±2^53 bounds zod writes for every integer, and no `additionalProperties:
 * false` in output schemas (they describe what we send; nothing validates extra fields away).
 */
function toJsonSchema(shape: z.ZodRawShape, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(z.object(shape), {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return compactSchema(schema, io) as Record<string, unknown>;
}

function compactSchema(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => compactSchema(item, io));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === 'additionalProperties' && value === false && io === 'output') continue;
    out[key] = compactSchema(value, io);
  }
  return out;
}
