/**
 * The emulator plays Roam's hiding rule: `data.ai.*` reads leave out
 * blocks tagged .rm-hide / .rm-private and everything under them; raw `q`/`data.q` and
 * `data.ai.searchTemplates` do not.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN_GRAPH, SECRET_TEXT } from '../mcp/navigation/hidden-graph.ts';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  home = await tempDir('emulator-hiding-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'g', content: HIDDEN_GRAPH }],
    semanticSearch: true,
  });
  token = emulator.addToken('g', 'hosted', 'read-only');
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

async function run(action: string, args: unknown[]): Promise<unknown> {
  const reply = await callAction(emulator, { graph: 'g', token, action, args });
  if (reply.status !== 200) throw new Error(`${reply.status} ${reply.body.error?.message}`);
  return reply.body.result;
}

describe('data.ai.* reads hide tagged blocks and their subtrees', () => {
  it('getPage leaves out every hidden form and nested child, keeps the visible blocks', async () => {
    const page = (await run('data.ai.getPage', [{ title: 'Journal' }])) as { markdown: string };
    expect(page.markdown).toContain('Met [[Public Topic]] people today');
    expect(page.markdown).toContain('Also visible: [[Shared Topic]]');
    expect(page.markdown).not.toContain(SECRET_TEXT);
    const notes = (await run('data.ai.getPage', [{ title: 'Notes' }])) as { markdown: string };
    expect(notes.markdown).not.toContain(SECRET_TEXT);
  });

  it('getBlock answers a hidden block, or a child of one, as missing', async () => {
    expect(await run('data.ai.getBlock', [{ uid: 'hid-root1' }])).toBeNull();
    expect(await run('data.ai.getBlock', [{ uid: 'hid-grand1' }])).toBeNull();
    expect(await run('data.ai.getBlock', [{ uid: 'hid-root3' }])).toBeNull();
  });

  it('getBacklinks filters after paging: the total counts hidden referrers, shown does not', async () => {
    const shared = (await run('data.ai.getBacklinks', [{ title: 'Shared Topic' }])) as {
      total: number;
      shown: number;
      results: Array<{ uid: string }>;
    };
    expect(shared.total).toBe(3);
    expect(shared.shown).toBe(2);
    expect(JSON.stringify(shared)).not.toContain(SECRET_TEXT);
    const only = (await run('data.ai.getBacklinks', [{ title: 'Hidden Project' }])) as { shown: number };
    expect(only.shown).toBe(0);
  });

  it('search and semanticSearch skip hidden blocks', async () => {
    const hits = await run('data.ai.search', [{ query: 'secret', scope: 'blocks' }]);
    expect(hits).toMatchObject({ total: 0, results: [] });
    const similar = (await run('data.ai.semanticSearch', [{ query: 'secret plans' }])) as {
      results: unknown[];
    };
    expect(JSON.stringify(similar)).not.toContain(SECRET_TEXT);
  });
});

describe('raw reads and templates are not filtered (as in Roam)', () => {
  it('q and data.q see hidden blocks', async () => {
    const query = '[:find ?s . :where [?b :block/uid "hid-grand1"] [?b :block/string ?s]]';
    expect(await run('q', [query])).toBe('SECRET grandchild on [[Deep Secret]]');
    expect(await run('data.q', [query])).toBe('SECRET grandchild on [[Deep Secret]]');
  });

  it('searchTemplates shows a template with hidden children unfiltered', async () => {
    expect(JSON.stringify(await run('data.ai.searchTemplates', [{}]))).toContain('SECRET salary talk');
  });
});
