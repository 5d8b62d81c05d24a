/**
 * Property-based fuzzing of every tool's arguments, derived from the inputSchemas the bin
 * advertises in tools/list: wrong types, missing and unknown fields, nulls, unicode, huge strings.
 * Every call must get a well-formed answer (a result, or a clean JSON-RPC error), and the bin
 * must keep serving: a valid call afterwards succeeds and stderr shows no crash.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import { errorCode, makeToken, allTextOf, type McpHandle } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';

const TOKEN = makeToken('FUZZARGS');
const GRAPH = 'fuzz-graph';
const LONG = process.env.ROAM_LONG_TESTS === '1';
const RUNS_PER_TOOL = LONG ? 300 : 25;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
};

const HUGE = 'ß'.repeat(100_000);
const nasty = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800', // lone surrogate
  '👩‍👩‍👧‍👦'.repeat(50),
  '[[',
  '((()))',
  '"]]}',
  '[:find ?e :where [?e :block/uid _]]',
  '{{[[TODO]]}}',
  '../../etc/passwd',
  'roam://#/app/x',
  HUGE,
);

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  nasty,
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** A value that fits the property's schema (roughly): enums, bounded numbers, odd strings. */
function fitting(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(fitting));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? fitting(schema.items) : anyJson, { maxLength: 4 });
    case 'string':
      return fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), nasty, fc.constant('apollo-pg'));
    default:
      return anyJson;
  }
}

/** Arguments for a tool: each property fitting, hostile, or missing; sometimes an unknown key. */
function argumentsFor(tool: Tool): fc.Arbitrary<unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const record = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, schema]) => [key, fc.oneof(fitting(schema), anyJson)]),
    ),
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 6, arbitrary: record },
    { weight: 1, arbitrary: record.map((r) => ({ ...r, unexpected: 'field' })) },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

let world: StdioWorld;
let emulator: Emulator;
let bin: McpHandle;
let tools: Tool[] = [];
let freshPages = 0;

/** Adds a page directly in the emulator's database and reads it through the bin. */
async function readsAFreshPage() {
  freshPages += 1;
  const title = `Fresh page ${freshPages}`;
  emulator.graph(GRAPH).run('data.page.create', [{ page: { title } }]);
  const result = await bin.call('get_page', { title });
  expect(allTextOf(result)).toContain(title);
  return result;
}

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      port: 0,
      graphs: [{ name: GRAPH, content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
    },
    config: [{ name: GRAPH, token: TOKEN }],
  });
  ({ emulator, mcp: bin } = world);
  expect(errorCode(await bin.call('select_graph', { graph: GRAPH }))).toBeUndefined();
  tools = (await bin.client.listTools()).tools;
});

afterAll(() => world?.close());

describe('tool arguments fuzzing (from tools/list inputSchemas)', () => {
  it('advertises tools with object input schemas', () => {
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  });

  it(
    'every tool answers every hostile argument set cleanly and the server keeps serving',
    { timeout: LONG ? 600_000 : 60_000 },
    async () => {
      for (const tool of tools) {
        await fc.assert(
          fc.asyncProperty(argumentsFor(tool), async (args) => {
            let result;
            try {
              result = await bin.client.callTool({
                name: tool.name,
                arguments: args as Record<string, unknown>,
              });
            } catch (error) {
              // A JSON-RPC error is a clean answer too, but it must say something.
              expect(String((error as Error).message)).not.toBe('');
              return;
            }
            expect(Array.isArray(result.content)).toBe(true);
            const text = allTextOf(result as never);
            expect(text).not.toContain(TOKEN);
            if (result.isError) expect(errorCode(result as never)).toMatch(/^[A-Z_]+$/);
          }),
          { numRuns: RUNS_PER_TOOL, seed: LONG ? undefined : 7 },
        );
      }
      // The fuzzed writes may have deleted any page: check on one made afterwards, behind its back.
      const after = await readsAFreshPage();
      expect(errorCode(after)).toBeUndefined();
      expect(bin.stderr()).not.toMatch(/Unhandled|TypeError|RangeError|at .*\.mjs:\d+/);
    },
  );

  it('a tool name that does not exist answers UNKNOWN_TOOL, arguments of every JSON type are survived', async () => {
    const unknown = await bin.call('no_such_tool', {});
    expect(errorCode(unknown)).toBe('UNKNOWN_TOOL');
    for (const args of [null, [], 'text', 42, true]) {
      const raw = await bin.client
        .callTool({ name: 'get_page', arguments: args as never })
        .then((r) => (r.isError ? errorCode(r as never) : 'ok'))
        .catch((error: Error) => `rpc:${error.message.slice(0, 40)}`);
      expect(raw).not.toBe('ok');
    }
    expect(errorCode(await readsAFreshPage())).toBeUndefined();
  });
});
