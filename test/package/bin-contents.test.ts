/**
 * What the built bin (dist/roam-mcp.mjs) bundles, read from its source map (test/global-setup.ts
 * builds dist/ first): the SDK v2 server, not the v1 sdk, and no AJV (src-mcp/process/sdk-node-shims.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../harness/mcp-bin.ts';

it('bundles @modelcontextprotocol/server without AJV and without the v1 sdk', async () => {
  // The entry and its chunks (scripts/build.mjs), each with its own map.
  const chunkMaps = (await readdir(path.join(ROOT, 'dist/roam-mcp-chunks')))
    .filter((name) => name.endsWith('.map'))
    .map((name) => `dist/roam-mcp-chunks/${name}`);
  const sources: string[] = [];
  for (const file of ['dist/roam-mcp.mjs.map', ...chunkMaps]) {
    const map = JSON.parse(await readFile(path.join(ROOT, file), 'utf8')) as { sources: string[] };
    sources.push(...map.sources.map((s) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), s))));
  }
  expect(sources.some((s) => s.includes('node_modules/@modelcontextprotocol/server/'))).toBe(true);
  expect(sources.filter((s) => s.includes('node_modules/@modelcontextprotocol/sdk/'))).toEqual([]);
  expect(sources.filter((s) => /ajv/i.test(s))).toEqual([]);
});
