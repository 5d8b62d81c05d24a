/**
 * resources/list, resources/templates/list and resources/read over the catalogue's resources.
 * A read resolves `{graph}` from the URI and runs with the same graph context as a tool call
 * (src-mcp/server/tool-call.ts `graphContext`).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  UriTemplate,
  type Resource,
  type ResourceTemplateType,
} from '@modelcontextprotocol/server';
import { findGraph } from '../../src-shared/roam-config.ts';
import { graphContext, type ToolCallState } from './tool-call.ts';
import type { FixedResource, ResourceDefinition } from '../contract/tool-definition.ts';
import { toToolError } from '../contract/tool-errors.ts';

export class ResourceHandlers {
  private readonly templates: Array<{ definition: ResourceDefinition; template: UriTemplate }>;

  constructor(
    private readonly resources: readonly ResourceDefinition[],
    private readonly state: Pick<ToolCallState, 'gateway' | 'services'>,
    private readonly fixed: readonly FixedResource[] = [],
  ) {
    this.templates = resources.map((r) => ({ definition: r, template: new UriTemplate(r.uriTemplate) }));
  }

  /** The fixed resources, then one concrete URI per configured graph for each listable resource. */
  list(): Resource[] {
    const fixed = this.fixed.map(({ text: _text, ...listed }) => listed);
    return [...fixed, ...this.perGraph()];
  }

  private perGraph(): Resource[] {
    return this.templates.flatMap(({ definition, template }) =>
      definition.listable && template.variableNames.every((v) => v === 'graph')
        ? this.state.gateway.session.list().map((graph) => ({
            uri: template.expand({ graph: graph.nickname }),
            name: `${definition.name} (${graph.nickname})`,
            title: `${definition.title} (${graph.nickname})`,
            description: definition.description,
            mimeType: definition.mimeType,
          }))
        : [],
    );
  }

  listTemplates(): ResourceTemplateType[] {
    return this.resources.map((r) => ({
      uriTemplate: r.uriTemplate,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    }));
  }

  async read(uri: string, signal: AbortSignal) {
    const fixed = this.fixed.find((r) => r.uri === uri);
    if (fixed)
      return {
        contents: [
          {
            uri,
            mimeType: fixed.mimeType,
            text: fixed.text(),
            ...(fixed._meta ? { _meta: fixed._meta } : {}),
          },
        ],
      };
    for (const { definition, template } of this.templates) {
      const match = template.match(uri);
      if (!match) continue;
      const variables = Object.fromEntries(
        Object.entries(match).map(([k, v]) => [k, decodeURIComponent(Array.isArray(v) ? v.join(',') : v)]),
      );
      const text = await this.readMatched(definition, uri, variables, signal);
      return { contents: [{ uri, mimeType: definition.mimeType, text }] };
    }
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown resource ${uri}. Resources: ${this.fixed.map((r) => r.uri).join(', ') || 'none'}; resource templates: ${this.resources.map((r) => r.uriTemplate).join(', ') || 'none'}.`,
      { uri },
    );
  }

  private async readMatched(
    definition: ResourceDefinition,
    uri: string,
    variables: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    const session = this.state.gateway.session;
    const graph = findGraph(session.list(), variables.graph ?? '');
    if (!graph) {
      const available = session.available().map((g) => g.nickname);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No configured graph '${variables.graph}' in ${uri}. Available: ${available.join(', ')}.`,
      );
    }
    const scope = { signal, progress: () => {}, notice: () => {} };
    try {
      return await definition.read(variables, graphContext(this.state, graph, scope));
    } catch (error) {
      const toolError = toToolError(error, graph);
      throw new ProtocolError(
        toolError.code === 'NOT_FOUND' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
        `${toolError.code}: ${toolError.message}`,
        { code: toolError.code, ...toolError.details },
      );
    }
  }
}
