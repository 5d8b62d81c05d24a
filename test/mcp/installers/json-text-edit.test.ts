import fc from 'fast-check';
import { parse } from 'jsonc-parser/lib/esm/main.js';
import { describe, expect, it } from 'vitest';
import { removeNestedProperty, setNestedProperty } from '../../../src-mcp/installers/json-text-edit.ts';

const OURS = 'roam-companion';
const key = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== OURS && k !== '__proto__');
const server = fc.record({
  command: fc.string({ maxLength: 20 }),
  args: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
});
const config = fc.record({
  settings: fc.dictionary(key, fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 8 })), {
    maxKeys: 3,
  }),
  servers: fc.option(fc.dictionary(key, server, { maxKeys: 4 }), { nil: undefined }),
  indent: fc.constantFrom<string | number>(0, 2, 4, '\t'),
  crlf: fc.boolean(),
  comment: fc.boolean(),
});
const entry = fc.record({
  command: fc.string({ maxLength: 30 }),
  args: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
});

type Config = typeof config extends fc.Arbitrary<infer T> ? T : never;

function render(c: Config): { text: string; value: Record<string, unknown> } {
  const value: Record<string, unknown> = { ...c.settings };
  if (c.servers) value.mcpServers = c.servers;
  let text = JSON.stringify(value, null, c.indent);
  if (c.comment && c.indent !== 0) text = `// my servers\n${text}`;
  if (c.crlf) text = text.replace(/\n/g, '\r\n');
  return { text, value };
}

describe('setNestedProperty / removeNestedProperty', () => {
  it('set changes only our entry, whatever the formatting', () => {
    fc.assert(
      fc.property(config, entry, (c, ours) => {
        const { text, value } = render(c);
        const after = parse(setNestedProperty(text, 'mcpServers', OURS, ours));
        const { [OURS]: inserted, ...others } = after.mcpServers;
        expect(inserted).toEqual(ours);
        expect(others).toEqual(value.mcpServers ?? {});
        expect({ ...after, mcpServers: null }).toEqual({ ...value, mcpServers: null });
      }),
    );
  });

  it('remove after set gives back the original text exactly when the server map existed', () => {
    fc.assert(
      fc.property(config, entry, (c, ours) => {
        fc.pre(c.servers !== undefined);
        const { text } = render(c);
        expect(
          removeNestedProperty(setNestedProperty(text, 'mcpServers', OURS, ours), 'mcpServers', OURS),
        ).toBe(text);
      }),
    );
  });

  it('setting the same value twice is the same as once, and updating replaces only our value', () => {
    fc.assert(
      fc.property(config, entry, entry, (c, first, second) => {
        const { text } = render(c);
        const once = setNestedProperty(text, 'mcpServers', OURS, first);
        expect(setNestedProperty(once, 'mcpServers', OURS, first)).toBe(once);
        const updated = parse(setNestedProperty(once, 'mcpServers', OURS, second));
        expect(updated.mcpServers[OURS]).toEqual(second);
      }),
    );
  });

  it('keeps comments next to entries and trailing commas (JSONC)', () => {
    const text = [
      '{',
      '  "servers": {',
      '    "a": { "command": "a" }, // keep me',
      '    /* b */ "b": { "command": "b" } // and me',
      '  },',
      '}',
      '',
    ].join('\n');
    const after = setNestedProperty(text, 'servers', OURS, { command: 'x', args: [] });
    expect(after).toContain(
      '"a": { "command": "a" }, // keep me\n    /* b */ "b": { "command": "b" }, // and me\n',
    );
    expect(parse(after, [], { allowTrailingComma: true }).servers[OURS]).toEqual({ command: 'x', args: [] });
    expect(removeNestedProperty(after, 'servers', OURS)).toBe(text);
  });

  it('removes an entry someone else wrote inline, and leaves {} when nothing is left', () => {
    expect(removeNestedProperty('{"s": {"x": 1, "roam-companion": {}, "y": 2}}', 's', OURS)).toBe(
      '{"s": {"x": 1, "y": 2}}',
    );
    expect(removeNestedProperty('{"s": {"roam-companion": {}, "y": 2}}', 's', OURS)).toBe('{"s": {"y": 2}}');
    expect(removeNestedProperty('{\n  "s": {\n    "roam-companion": {}\n  }\n}', 's', OURS)).toBe(
      '{\n  "s": {}\n}',
    );
    expect(removeNestedProperty('{"s": {}}', 's', OURS)).toBe('{"s": {}}');
  });
});
