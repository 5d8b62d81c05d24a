/**
 * Files and shortcuts before the consent gate (docs/mcp.md, "Consent before a write takes much
 * away"), through the built bin with real SDK clients in both eras, tried as an adversary would:
 * every file removal is asked (file_delete, or undoing the upload that made it), named by what a
 * person knows (never its address, which carries a token), with the blocks that show it; a
 * declined file delete is asked again when the same file would go by the undo, so another tool
 * does not get around it; taking a page off the sidebar's shortcuts asks nothing (the page stays,
 * the undo puts it back), even on a page whose change the person declined. An apps client gets a
 * proposal naming the file, without its address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentClient, type Answer, type ConsentClient, type Era } from '../../harness/consent-client.ts';
import { jsonOf, textOf } from '../../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { blocks, uidOf } from './numbered-blocks.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

let world: StdioWorld;
beforeAll(async () => {
  world = await startOneGraphWorld(
    ['1', '2', '3'].flatMap((t) => [
      { title: `Trip ${t}`, uid: uidOf(`tr${t}`, 0), children: [{ string: 'photos below' }] },
      { title: `Big ${t}`, uid: uidOf(`bg${t}`, 0), children: blocks(`b${t}`, 20) },
    ]),
  );
});
afterAll(() => world?.close());

const stored = (url: string) => {
  try {
    world.emulator.graph('g').run('file.get', [{ url, format: 'base64' }]);
    return true;
  } catch {
    return false;
  }
};
/** The sidebar's shortcuts, by title. */
const shortcuts = () =>
  (world.emulator.graph('g').run('data.ai.getGraphGuidelines') as { starredPages: string[] }).starredPages;

describe.each([
  ['2025-11-25', '1'],
  ['2026-07-28', '2'],
] as const)('on %s', (era: Era, t) => {
  let answer: Answer = 'decline';
  let c: ConsentClient;
  beforeAll(async () => {
    c = await consentClient(world.home, era, { answer: () => answer });
    jsonOf(await c.call('select_graph', { graph: 'g' }));
  });
  afterAll(() => c?.close());

  const upload = async (filename: string) =>
    jsonOf<{ url: string }>(await c.call('file_upload', { base64: PNG, mimetype: 'image/png', filename }))
      .url;

  it('a file shown in a block: its delete is asked, naming the file and the block, never its address', async () => {
    answer = 'decline';
    const url = await upload('beach.png');
    jsonOf(await c.call('create_block', { pageTitle: `Trip ${t}`, markdown: `![](${url})` }));
    expect(c.asked).toEqual([]);
    const name = decodeURIComponent(url.split('?')[0]!).split('/').pop()!;

    const declined = await c.call('file_delete', { url });
    expect(textOf(declined)).toMatch(/declined file_delete/);
    expect(declined.structuredContent).toMatchObject({ deleted: false, url });
    expect(c.asked.at(-1)).toBe(
      `Delete the file '${name}' in graph 'g'? '${name}' is shown in 1 block on 'Trip ${t}'; it would show a broken link. It can be undone from this chat, but a file comes back under a new address, which no block shows.`,
    );
    expect(JSON.stringify(c.asked)).not.toMatch(/token=|firebasestorage/);
    expect(stored(url)).toBe(true);

    answer = 'accept';
    expect(jsonOf(await c.call('file_delete', { url }))).toEqual({ deleted: true, url });
    expect(stored(url)).toBe(false);
  });

  it('a file no block shows is asked too, and a declined delete is asked again when undoing its upload would take it', async () => {
    answer = 'decline';
    const before = c.asked.length;
    const url = await upload('draft.png');
    expect(textOf(await c.call('file_delete', { url }))).toMatch(/declined file_delete/);
    expect(c.asked.slice(before)).toEqual([
      expect.stringMatching(/^Delete the file '.+\.png' in graph 'g'\?/),
    ]);

    const changes = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(
      await c.call('list_changes', {}),
    ).changes;
    const uploaded = changes.find((ch) => ch.tool === 'file_upload')!.id;
    expect(textOf(await c.call('undo_changes', { ids: [uploaded] }))).toMatch(/declined undo_changes/);
    expect(c.asked.at(-1)).toMatch(
      /^Undo 1 change this chat made in graph 'g'\? That would delete the file 'draft\.png'\./,
    );
    expect(stored(url)).toBe(true);
  });

  it('taking a page off the shortcuts asks nothing, even on a page whose change the person declined', async () => {
    answer = 'decline';
    const page = uidOf(`bg${t}`, 0);
    expect(textOf(await c.call('delete_page', { uid: page }))).toMatch(/declined delete_page/);
    const asked = c.asked.length;
    jsonOf(await c.call('add_shortcut', { uid: page }));
    expect(shortcuts()).toContain(`Big ${t}`);
    expect(jsonOf(await c.call('remove_shortcut', { uid: page }))).toEqual({ success: true, uid: page });
    expect(shortcuts()).not.toContain(`Big ${t}`);
    expect(c.asked).toHaveLength(asked);
  });
});

it('an apps client gets a proposal naming the file and the blocks that show it, never its address', async () => {
  const c = await consentClient(world.home, '2026-07-28', { apps: true });
  try {
    jsonOf(await c.call('select_graph', { graph: 'g' }));
    const url = jsonOf<{ url: string }>(
      await c.call('file_upload', { base64: PNG, mimetype: 'image/png', filename: 'map.png' }),
    ).url;
    jsonOf(await c.call('create_block', { pageTitle: 'Trip 3', markdown: `see ![](${url})` }));
    const held = await c.call('file_delete', { url });
    expect(textOf(held)).toMatch(/^Waiting for the person, nothing changed yet: Delete the file/);
    const view = held._meta?.['roam-companion/proposal'] as { taken: { files: unknown[] } };
    expect(view.taken.files).toEqual([
      { name: expect.stringMatching(/\.png$/), shownIn: { blocks: 1, pages: ['Trip 3'] } },
    ]);
    // The address (its query carries a token) stays with the model's own arguments, never in `_meta`.
    expect(JSON.stringify(held._meta)).not.toContain(url.split('?')[1]!);
    expect(stored(url)).toBe(true);
  } finally {
    await c.close();
  }
});
