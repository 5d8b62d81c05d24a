/**
 * Every tool and resource, in the order tools/list shows them (graph management, content, daily
 * notes, comments, discovery, shortcuts, desktop UI, extensions, files, batch edits, navigation),
 * and the tools/list form of a tool. A new file of tools (src-mcp/tools/<toolset>/) is one import
 * line here; a new tool in an existing file changes nothing here. Loaded after the MCP handshake
 * (src-mcp/server/server.ts), so building the schemas never delays the initialize answer.
 */
import type { Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { navigationResources } from '../navigation/index.ts';
import { CHANGE_REVIEW_META, changeReviewResource } from '../apps/change-review-resource.ts';
import { skillResource } from './skill.ts';
import {
  inputShape,
  readOnlyHint,
  type FixedResource,
  type ResourceDefinition,
  type ToolDefinition,
} from '../contract/tool-definition.ts';
import { batchEditTools } from '../tools/core/batch-edits.ts';
import { approvalTools } from '../tools/core/approval.ts';
import { changeTools } from '../tools/core/changes.ts';
import { commentTools } from '../tools/core/comments.ts';
import { contentReadTools } from '../tools/core/content-reads.ts';
import { contentWriteTools } from '../tools/core/content-writes.ts';
import { dailyNoteTools } from '../tools/core/daily-notes.ts';
import { discoveryTools } from '../tools/core/discovery.ts';
import { findBlocksTools } from '../tools/core/find-blocks.ts';
import { graphGuidelinesTools } from '../tools/core/graph-guidelines.ts';
import { graphTools } from '../tools/core/graphs.ts';
import { setupGraphTools } from '../tools/core/setup-new-graph.ts';
import { updatePageMarkdownTools } from '../tools/core/update-page-markdown.ts';
import { developerTools } from '../tools/developer/reload-dev-extensions.ts';
import { extensionTools } from '../tools/extensions/call-extension-tool.ts';
import { fileTools } from '../tools/files/files.ts';
import { navigationTools } from '../tools/navigation/index.ts';
import { desktopUiTools } from '../tools/ui/desktop-ui.ts';
import { shortcutTools } from '../tools/ui/shortcuts.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';

export const tools: readonly ToolDefinition[] = [
  ...graphTools,
  ...graphGuidelinesTools,
  ...setupGraphTools,
  ...contentReadTools,
  ...contentWriteTools,
  ...dailyNoteTools,
  ...commentTools,
  ...discoveryTools,
  ...findBlocksTools,
  ...shortcutTools,
  ...desktopUiTools,
  ...extensionTools,
  ...developerTools,
  ...fileTools,
  ...batchEditTools,
  ...updatePageMarkdownTools,
  ...changeTools,
  ...approvalTools,
  ...navigationTools,
];

export const resources: readonly ResourceDefinition[] = navigationResources;

/** The change-review app and the agent skill: one URI each, listed to every client. */
export const fixedResources: readonly FixedResource[] = [changeReviewResource, skillResource];

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
    ...(tool._meta ? { _meta: tool._meta } : mayWait(tool) ? { _meta: CHANGE_REVIEW_META } : {}),
  };
}

/**
 * A write the consent gate may hold for the person (src-mcp/gate/consent.ts): a host that renders
 * apps shows its result in the change-review app, which draws a waiting proposal with Approve and
 * Keep (and nothing for a plain result). A write that takes nothing is never held.
 */
function mayWait(tool: ToolDefinition): boolean {
  return (tool.takes !== undefined && tool.takes.nothing === undefined) || tool.editTargets === 'planned';
}

/**
 * JSON Schema for tools/list, kept compact because every chat pays for it in context: no
 * `$schema` line, no ±2^53 bounds zod writes for every integer, and no `additionalProperties:
 * false` in output schemas (they describe what we send; nothing validates extra fields away).
 * Input schemas also leave out what tells a model nothing it would get wrong (the server still
 * validates every call against the zod schema): `minLength: 1` (no one sends an empty uid on
 * purpose; an empty one gets a clear error), a `default` that is what absence means anyway
 * (`false`, `""`, `[]`, offset 0), and the "anything" spellings (`items: {}`, `propertyNames`
 * of type string, `additionalProperties: {}`).
 * Every schema is also portable (the MCP Inspector's `--strict` check,
 * test/clients/inspector-cli.test.ts): a `type` array (zod's nullable) becomes `anyOf` of single
 * types, which clients that map schemas onto a one-type dialect (Gemini's function declarations)
 * can read, and an output's empty `{}` under `additionalProperties` or `items` is left out too,
 * which JSON Schema reads the same (any value).
 */
function toJsonSchema(shape: z.ZodRawShape, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(z.object(shape), {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return compactSchema(schema, io) as Record<string, unknown>;
}

const isEmptyObject = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;

/** An input `default` a model would assume without being told. */
function saysNothing(value: unknown, property: string | undefined): boolean {
  if (value === false || value === '') return true;
  if (Array.isArray(value) && value.length === 0) return true;
  return property === 'offset' && value === 0;
}

function compactSchema(node: unknown, io: 'input' | 'output', property?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => compactSchema(item, io));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === 'additionalProperties' && value === false && io === 'output') continue;
    if (io === 'input' && isNoise(key, value, property)) continue;
    if ((key === 'additionalProperties' || key === 'items') && isEmptyObject(value)) continue;
    if (key === 'type' && Array.isArray(value) && !('anyOf' in node)) {
      out.anyOf = value.map((type) => ({ type }));
      continue;
    }
    out[key] =
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>).map(([name, sub]) => [
              name,
              compactSchema(sub, io, name),
            ]),
          )
        : compactSchema(value, io);
  }
  return out;
}

function isNoise(key: string, value: unknown, property: string | undefined): boolean {
  if (key === 'minLength') return value === 1;
  if (key === 'default') return saysNothing(value, property);
  if (key === 'propertyNames') return isEqualJson(value, { type: 'string' });
  return false;
}

const isEqualJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
