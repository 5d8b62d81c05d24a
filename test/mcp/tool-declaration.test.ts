/**
 * The declaration contract (docs/architecture.md, Declaring a tool): readOnlyHint follows from
 * `writes` / `effects`, and one refusal rule decides both tools/list and tools/call.
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { GraphSession } from '../../src-mcp/graph-session.ts';
import type { ServerRuntime } from '../../src-mcp/server-runtime.ts';
import { callTool, refusal, type ToolCallState } from '../../src-mcp/tool-call.ts';
import { listedTool, tools as catalogue } from '../../src-mcp/tool-catalogue.ts';
import { defineTool } from '../../src-mcp/tool-definition.ts';
import { TOOLSET_NAMES } from '../../src-shared/toolsets.ts';

const reader = defineTool({
  name: 'read_thing',
  title: 'Read',
  description: 'reads',
  scope: 'graph',
  inputSchema: {},
  handler: async () => 'read',
});
const writer = defineTool({
  name: 'write_thing',
  title: 'Write',
  description: 'writes',
  scope: 'graph',
  writes: 'append',
  annotations: { destructiveHint: false, idempotentHint: false },
  inputSchema: {},
  handler: async () => 'written',
});
const opener = defineTool({
  name: 'open_thing',
  title: 'Open',
  description: 'opens a page in Roam Desktop',
  scope: 'graph',
  effects: 'ui',
  inputSchema: { title: z.string() },
  handler: async (args, ctx) => `opened ${args.title} in ${ctx.graph.nickname}`,
});

function state(
  readOnly: boolean,
  accessLevel?: 'read-only' | 'full',
  grantedAccessLevel?: 'read-only' | 'full',
): ToolCallState {
  const session = new GraphSession({ readOnly });
  session.setGraphs([
    { name: 'g', nickname: 'G', type: 'hosted', token: 't', accessLevel, grantedAccessLevel },
  ]);
  const runtime = { session, offers: () => false } as unknown as ServerRuntime;
  return { runtime, readOnly, toolsets: TOOLSET_NAMES };
}
const scope = { signal: new AbortController().signal, progress: () => {}, notice: () => {} };

describe('tool declarations', () => {
  it('derives readOnlyHint from writes and effects, never from a hand-written flag', () => {
    expect(listedTool(reader).annotations).toMatchObject({ readOnlyHint: true });
    expect(listedTool(writer).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(listedTool(opener).annotations).toMatchObject({ readOnlyHint: false });
    for (const tool of catalogue) {
      expect(listedTool(tool).annotations?.readOnlyHint, tool.name).toBe(!tool.writes && !tool.effects);
    }
  });

  it('refuses writes in read-only mode, at a chosen read-only level and with read-only tokens, but not UI effects', async () => {
    expect(refusal(writer, state(true))).toMatchObject({
      code: 'ACCESS_LEVEL',
      details: { setting: '--read-only' },
    });
    expect(refusal(writer, state(false, 'read-only'))?.code).toBe('ACCESS_LEVEL');
    expect(refusal(writer, state(false, undefined, 'read-only'))?.code).toBe('INSUFFICIENT_SCOPE');
    expect(refusal(opener, state(true))).toBeUndefined();
    expect(refusal(opener, state(false, 'read-only'))).toBeUndefined();
    const result = await callTool([opener], 'open_thing', { title: 'P' }, scope, state(true));
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: 'opened P in G' }]);
  });

  it('asks for a graph ticket before a write, not before a UI effect', async () => {
    const write = await callTool([writer], 'write_thing', {}, scope, state(false, 'full'));
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toContain('GRAPH_TICKET_REQUIRED');
    const open = await callTool([opener], 'open_thing', { title: 'P' }, scope, state(false, 'full'));
    expect(open.isError).toBeUndefined();
  });

  it('keeps every catalogue name unique', () => {
    const names = catalogue.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
