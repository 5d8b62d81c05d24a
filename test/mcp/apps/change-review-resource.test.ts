/**
 * The change-review MCP App as the server offers it (src-mcp/apps/change-review-resource.ts):
 * list_changes and undo_changes name it in `_meta.ui.resourceUri` (and no other tool does); it is
 * listed and read as `text/html;profile=mcp-app`; the page is self-contained: one inline script
 * and one inline style, each allowed by its hash in a CSP that allows nothing else.
 */
import { createHash } from 'node:crypto';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BIN, removeHome, tempHome } from '../../harness/mcp-bin.ts';
import { legacySession, modernSession, type WireBin } from '../../harness/wire-bin.ts';

const URI = 'ui://roam-mcp/change-review.html';
const opened: WireBin[] = [];
afterEach(async () => {
  for (const bin of opened.splice(0)) await bin.close();
});

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

it.each([
  ['2025-11-25', legacySession],
  ['2026-07-28', modernSession],
] as const)(
  'on %s: list_changes, undo_changes and the writes the consent gate may hold, and only they, show the app',
  async (_era, session) => {
    const bin = await session();
    opened.push(bin);
    const tools = (await bin.send('tools/list')).result?.tools as Array<{ name: string; _meta?: unknown }>;
    const withApp = tools.filter((t) => JSON.stringify(t._meta ?? {}).includes(URI)).map((t) => t.name);
    expect(withApp.sort()).toEqual([
      'call_extension_tool',
      'delete_block',
      'delete_blocks',
      'delete_page',
      'file_delete',
      'list_changes',
      'move_block',
      'undo_changes',
      'update_block',
      'update_blocks',
      'update_page',
      'update_page_markdown',
    ]);
    for (const name of withApp)
      expect(tools.find((t) => t.name === name)?._meta).toEqual({ ui: { resourceUri: URI } });
    const resources = (await bin.send('resources/list')).result?.resources;
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: URI, mimeType: 'text/html;profile=mcp-app' }),
    );
  },
);

it('the page loads nothing from outside: inline script and style, each allowed only by its hash', async () => {
  const bin = await modernSession();
  opened.push(bin);
  const read = await bin.send('resources/read', { uri: URI });
  const [content] = read.result?.contents as Array<{
    uri: string;
    mimeType: string;
    text: string;
    _meta: unknown;
  }>;
  expect(content).toMatchObject({ uri: URI, mimeType: 'text/html;profile=mcp-app' });
  expect(content?._meta).toEqual({
    ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
  });
  const html = content!.text;
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
  expect(scripts).toHaveLength(1);
  expect(styles).toHaveLength(1);
  expect(scripts[0]![1]).toBe(''); // no src
  // The markup and the style (the script is allowed to name URLs in its strings: it can fetch none).
  const markup = html.replace(scripts[0]![2]!, '');
  expect(markup.match(/<link|<img|<iframe|<object|<embed|@import|url\(/gi)).toBeNull();
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  expect(csp?.split('; ')).toEqual([
    "default-src 'none'",
    `script-src ${hash(scripts[0]![2]!)}`,
    `style-src ${hash(styles[0]![1]!)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ]);
});

it("a bin copied without the app's page answers the read with what is missing and what to do", async () => {
  const copy = await tempHome('roam-bin-copy-');
  try {
    // The bin and its chunks (scripts/build.mjs), without the page.
    await cp(BIN, path.join(copy, 'roam-mcp.mjs'));
    await cp(path.join(path.dirname(BIN), 'roam-mcp-chunks'), path.join(copy, 'roam-mcp-chunks'), {
      recursive: true,
      filter: (source) => !source.endsWith('.map') && !source.endsWith('change-review.html'),
    });
    const bin = await modernSession(path.join(copy, 'roam-mcp.mjs'));
    opened.push(bin);
    const read = await bin.send('resources/read', { uri: URI });
    expect(read.error?.message).toMatch(
      /The change-review app's page is missing beside the bin \(ENOENT: .*change-review\.html\)\. Reinstall roam-companion \(npm\) or rebuild/,
    );
    expect((await bin.send('tools/list')).result?.tools).toBeDefined();
  } finally {
    await removeHome(copy);
  }
});
