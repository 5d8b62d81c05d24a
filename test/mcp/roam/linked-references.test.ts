/**
 * What newer Roam builds say beside the content reaches the agent: get_page / get_block show
 * Roam's `linkedReferences` preview after the markdown, get_backlinks passes on `shown` and `note`
 * and follows Roam's `nextOffset`. Older builds, which send none of it, read as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator } from '../../emulator/index.ts';
import { jsonOf, newToken, textOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const NEWER = newToken();
const OLDER = newToken();
let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'newer', content: 'demo', tokens: [{ token: NEWER, accessLevel: 'full' }] },
        {
          name: 'older',
          content: 'demo',
          olderShapes: true,
          tokens: [{ token: OLDER, accessLevel: 'full' }],
        },
      ],
    },
    config: [
      { name: 'newer', token: NEWER, accessLevel: 'full' },
      { name: 'older', token: OLDER, accessLevel: 'full' },
    ],
  });
  ({ emulator, mcp } = world);
});

afterAll(() => world?.close());

interface Preview {
  total: number;
  shown: number;
  results: Array<{ uid: string; markdown: string }>;
}
const roamPage = (graph: string, title: string) =>
  emulator.graph(graph).run('data.ai.getPage', [{ title }]) as { linkedReferences?: Preview };

describe('linked references', () => {
  it("get_page shows Roam's preview after the markdown on newer builds", async () => {
    const roam = roamPage('newer', 'Project Apollo').linkedReferences!;
    expect(roam.total).toBeGreaterThan(0);
    const text = textOf(await mcp.call('get_page', { title: 'Project Apollo', graph: 'newer' }));
    expect(text).toContain(`Linked references (${roam.shown} of ${roam.total}`);
    for (const item of roam.results) expect(text).toContain(`uid="${item.uid}"`);
  });

  it('get_block shows it too; older builds read as before, without it', async () => {
    const text = textOf(await mcp.call('get_block', { uid: 'apollo-d1', graph: 'newer' }));
    expect(text).toContain('Linked references (1 of 1):');
    expect(roamPage('older', 'Project Apollo').linkedReferences).toBeUndefined();
    const older = textOf(await mcp.call('get_page', { title: 'Project Apollo', graph: 'older' }));
    expect(older).not.toContain('Linked references');
  });

  it("get_backlinks passes on Roam's shown and note and follows its nextOffset", async () => {
    const roam = emulator
      .graph('newer')
      .run('data.ai.getBacklinks', [{ title: 'Project Apollo', limit: 1 }]) as {
      shown: number;
      note: string;
      nextOffset: number;
    };
    const page = jsonOf(
      await mcp.call('get_backlinks', { title: 'Project Apollo', limit: 1, graph: 'newer' }),
    );
    expect(page).toMatchObject({ shown: roam.shown, note: roam.note, nextOffset: roam.nextOffset });
  });
});
