/**
 * Extensions: tools extensions register for AI, listed in
 * getGraphGuidelines and run by `data.ai.callExtensionTool` (the renderer checks the declared
 * scope against the token and `args` against the tool's JSON Schema; every failure is a 500
 * whose text is written for the model), and `depot.reloadDeveloperExtensions`.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Scope } from './action-scopes.ts';
import { extrasOf } from './graph-extras.ts';
import type { RoamGraph } from './roam-graph.ts';
import type { ExtensionToolSpec } from './types.ts';

const validator = new AjvJsonSchemaValidator();

/** getGraphGuidelines' `extensionTools` entries (what the tool declares, not how it behaves). */
export function listedExtensionTools(graph: RoamGraph) {
  return extrasOf(graph).extensionTools.map(({ tool, description, scope, extension, inputSchema }) => ({
    tool,
    description,
    scope,
    ...(extension ? { extension } : {}),
    ...(inputSchema ? { inputSchema } : {}),
  }));
}

function named(graph: RoamGraph, args: unknown[]): ExtensionToolSpec | undefined {
  const tool = (args[0] as { tool?: unknown } | undefined)?.tool;
  return extrasOf(graph).extensionTools.find((t) => t.tool === tool);
}

/** The scope the token needs: what the called tool declares (an unknown tool fails later). */
export function extensionToolScope(graph: RoamGraph, args: unknown[]): Scope {
  return named(graph, args)?.scope ?? 'read';
}

export function callExtensionTool(graph: RoamGraph, args: unknown[]): unknown {
  const input = (args[0] ?? {}) as { tool?: unknown; args?: unknown };
  const spec = named(graph, args);
  if (!spec) {
    const ids = extrasOf(graph).extensionTools.map((t) => t.tool);
    throw new Error(
      `Unknown extension tool ${JSON.stringify(input.tool)}. Available tools: ${ids.join(', ') || 'none'}. Copy the id exactly from extensionTools.`,
    );
  }
  const toolArgs = input.args ?? {};
  if (spec.inputSchema) {
    const check = validator.getValidator(spec.inputSchema)(toolArgs);
    if (!check.valid) {
      throw new Error(
        `Arguments for extension tool "${spec.tool}" do not match its inputSchema: ${check.errorMessage}. Fix them and call again.`,
      );
    }
  }
  if (spec.fails !== undefined) throw new Error(`Extension tool "${spec.tool}" failed: ${spec.fails}`);
  return { tool: spec.tool, result: spec.result ?? null, queriedAt: new Date().toISOString() };
}

export function reloadDeveloperExtensions(graph: RoamGraph): unknown {
  return { reloaded: extrasOf(graph).developerExtensions.map(({ id, name }) => ({ id, name })) };
}
