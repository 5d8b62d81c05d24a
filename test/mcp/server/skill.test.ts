/**
 * The agent skill over MCP (src-mcp/server/skill.ts): the shipped skills/roam-companion/SKILL.md,
 * byte for byte, as the resource skill://roam-companion/SKILL.md to every client, and through the
 * Skills extension (skills/list, skills/get) with its verbatim frontmatter and the digest and size
 * of those very bytes, in both eras.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT } from '../../harness/mcp-bin.ts';
import { legacySession, modernSession, type WireBin } from '../../harness/wire-bin.ts';

const URI = 'skill://roam-companion/SKILL.md';
const shipped = readFile(path.join(ROOT, 'skills/roam-companion/SKILL.md'));
const opened: WireBin[] = [];
afterEach(async () => {
  for (const bin of opened.splice(0)) await bin.close();
});

async function expectedEntry() {
  const bytes = await shipped;
  const text = bytes.toString('utf8');
  return {
    uri: URI,
    frontmatter: {
      name: 'roam-companion',
      description: /^description: (.*)$/m.exec(text)?.[1],
    },
    resources: [
      { uri: URI, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.length },
    ],
  };
}

it.each([
  ['2025-11-25', legacySession],
  ['2026-07-28', modernSession],
] as const)('on %s: listed and read as a resource, byte for byte the shipped file', async (_era, session) => {
  const bin = await session();
  opened.push(bin);
  const list = await bin.send('resources/list');
  expect(list.result?.resources).toContainEqual(
    expect.objectContaining({ uri: URI, name: 'roam-companion', mimeType: 'text/markdown' }),
  );
  const read = await bin.send('resources/read', { uri: URI });
  expect(read.result?.contents).toEqual([
    { uri: URI, mimeType: 'text/markdown', text: (await shipped).toString('utf8') },
  ]);
});

it.each([
  ['2025-11-25', legacySession],
  ['2026-07-28', modernSession],
] as const)(
  'on %s: the Skills extension is declared and answers skills/list and skills/get',
  async (era, session) => {
    const bin = await session();
    opened.push(bin);
    const entry = await expectedEntry();
    const list = await bin.send('skills/list');
    expect(list.result).toMatchObject({ skills: [entry] });
    const get = await bin.send('skills/get', { uri: URI });
    expect(get.result).toMatchObject({ skill: entry });
    for (const result of [list.result, get.result])
      if (era === '2026-07-28')
        expect(result).toMatchObject({
          resultType: 'complete',
          ttlMs: expect.any(Number),
          cacheScope: 'private',
        });
      else
        for (const field of ['resultType', 'ttlMs', 'cacheScope']) expect(result).not.toHaveProperty(field);
    const unknown = await bin.send('skills/get', { uri: 'skill://other/SKILL.md' });
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect(unknown.error?.message).toContain(URI);
  },
);

it('the capabilities declare io.modelcontextprotocol/skills (2026-07-28 server/discover)', async () => {
  const bin = await modernSession();
  opened.push(bin);
  const discover = await bin.send('server/discover');
  expect(discover.result?.capabilities).toMatchObject({
    extensions: { 'io.modelcontextprotocol/skills': {} },
  });
});
