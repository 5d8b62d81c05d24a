/**
 * Tool names are stated once (src-mcp/contract/tool-names.ts): the list is exactly the
 * catalogue's, and every tool an error suggests next exists and is one the model can call (not
 * app-only). The types check the literals; this also catches a suggestion built at run time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAppOnly } from '../../../src-mcp/contract/tool-definition.ts';
import { TOOL_NAMES } from '../../../src-mcp/contract/tool-names.ts';
import { tools } from '../../../src-mcp/server/tool-catalogue.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe('tool names', () => {
  it('TOOL_NAMES is exactly the catalogue', () => {
    expect([...TOOL_NAMES].sort()).toEqual(tools.map((tool) => tool.name).sort());
  });

  it('every suggested_next_tool names a tool the model can call', () => {
    const suggested = sources(path.join(root, 'src-mcp')).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/suggested_next_tool(?::|\s*=)\s*'([^']*)'/g)].map(
        (m) => [path.relative(root, file), m[1]!] as const,
      ),
    );
    expect(suggested.length).toBeGreaterThan(10);
    const callable = new Set<string>(tools.filter((tool) => !isAppOnly(tool)).map((tool) => tool.name));
    expect(suggested.filter(([, name]) => !callable.has(name))).toEqual([]);
  });
});
