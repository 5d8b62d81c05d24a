import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';

const TOKEN = 'roam-graph-local-token-queriesqueriesqueriesquer1';

let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-queries-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'demo', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'read-only' }] }],
  });
});

afterAll(async () => {
  await emulator.close();
  await removeDir(home);
});

async function result(action: string, args: unknown[]): Promise<unknown> {
  const reply = await callAction(emulator, { graph: 'demo', token: TOKEN, action, args });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.result;
}

describe('data.q / q: Roam-style EDN', () => {
  it('finds tuples with namespaced attributes written as keywords', async () => {
    const titles = (await result('data.q', [
      '[:find ?t :where [?p :node/title ?t] [?p :block/uid "hermes-pg"]]',
    ])) as unknown[];
    expect(titles).toEqual([['Project Hermes']]);
  });

  it('binds :in inputs, including a lookup ref in entity position', async () => {
    const strings = await result('q', [
      '[:find ?s :in $ ?title :where [?p :node/title ?title] [?b :block/page ?p] [?b :block/string ?s] [(clojure.string/starts-with? ?s "status")]]',
      'Project Hermes',
    ]);
    expect(strings).toEqual([['status:: done']]);
    const scalar = await result('data.q', ['[:find ?t . :where [[:block/uid "ada-pg"] :node/title ?t]]']);
    expect(scalar).toBe('Ada Lovelace');
  });

  it('leaves string literals and comments alone while translating keywords', async () => {
    const uids = await result('data.q', [
      '[:find ?u ; a comment with :block/uid in it\n :where [?b :block/string "status:: done"] [?b :block/uid ?u]]',
    ]);
    expect(uids).toEqual([['hermes-st']]);
  });

  it('computes aggregates: backlink counts per page and the latest edit time', async () => {
    const counts = (await result('data.q', [
      '[:find ?t (count ?b) :where [?p :node/title ?t] [?b :block/refs ?p]]',
    ])) as Array<[string, number]>;
    const byTitle = Object.fromEntries(counts);
    // Project Apollo is linked from Ada's page, Hermes, Roam Companion, Nov 20th and Nov 22nd.
    expect(byTitle['Project Apollo']).toBe(5);
    expect(byTitle['Project Hermes']).toBe(3);
    expect(byTitle['roam/templates']).toBe(2);
    const [[latest]] = (await result('data.q', ['[:find (max ?t) :where [?b :edit/time ?t]]'])) as [[number]];
    expect(typeof latest).toBe('number');
  });

  it('returns pulls with Roam keys, :db/id included', async () => {
    const rows = (await result('data.q', [
      '[:find (pull ?b [:db/id :block/string {:block/children [:block/uid]}]) :where [?b :block/uid "apollo-gl"]]',
    ])) as Array<[Record<string, unknown>]>;
    expect(rows).toEqual([
      [
        {
          ':db/id': expect.any(Number),
          ':block/string': 'Goals',
          // An unordered set, as in Roam: not in :block/order.
          ':block/children': [{ ':block/uid': 'apollo-g2' }, { ':block/uid': 'apollo-g1' }],
        },
      ],
    ]);
    const wildcard = (await result('data.q', [
      '[:find (pull ?b [*]) :where [?b :block/uid "apollo-g1"]]',
    ])) as Array<[Record<string, unknown>]>;
    expect(wildcard[0]?.[0]).toMatchObject({
      ':block/uid': 'apollo-g1',
      ':block/order': 0,
      ':block/open': true,
    });
  });

  it('explains a broken query instead of failing silently', async () => {
    const reply = await callAction(emulator, {
      graph: 'demo',
      token: TOKEN,
      action: 'data.q',
      args: ['[:find ?x :where [?x'],
    });
    expect(reply.status).toBe(500);
    expect(reply.body.error?.message).toMatch(/^data\.q: the query could not be run: .*Check its EDN syntax/);
  });
});

describe('data.pull / data.pull_many', () => {
  it('accepts EDN and array lookup refs, follows reverse refs, and returns null when missing', async () => {
    const page = (await result('data.pull', [
      '[:node/title {:block/_refs [:block/uid]}]',
      '[:block/uid "grace-pg"]',
    ])) as Record<string, unknown>;
    expect(page[':node/title']).toBe('Grace Hopper');
    expect(
      (page[':block/_refs'] as Array<{ ':block/uid': string }>).map((r) => r[':block/uid']).sort(),
    ).toEqual(['ada-works', 'hermes-ow', 'nov21-b1']);
    expect(await result('data.pull', ['[:block/string]', [':block/uid', 'hermes-ls']])).toEqual({
      ':block/string': 'Lesson: measure before optimising #important',
    });
    expect(await result('data.pull', ['[*]', '[:block/uid "nope"]'])).toBeNull();
    expect(
      await result('data.pull_many', ['[:block/uid]', ['[:block/uid "ada-pg"]', '[:block/uid "nope"]']]),
    ).toEqual([{ ':block/uid': 'ada-pg' }, null]);
  });

  it('keeps :block/page, :block/parents and ordered children consistent', async () => {
    const block = (await result('data.pull', [
      '[{:block/page [:block/uid]} {:block/parents [:block/uid]}]',
      '[:block/uid "apollo-d2"]',
    ])) as Record<string, Array<{ ':block/uid': string }> | { ':block/uid': string }>;
    expect(block[':block/page']).toEqual({ ':block/uid': 'apollo-pg' });
    expect(
      (block[':block/parents'] as Array<{ ':block/uid': string }>).map((p) => p[':block/uid']).sort(),
    ).toEqual(['apollo-d1', 'apollo-dc', 'apollo-pg']);
  });
});

describe('AI markdown', () => {
  it('renders a page with headings, nesting, refs counts, page refs, highlights and block refs', async () => {
    expect(await result('data.ai.getPage', [{ title: 'Project Apollo' }])).toMatchObject({
      markdown: [
        '# Project Apollo <roam uid="apollo-pg" refs="5"/>',
        '',
        '- status:: in progress <roam uid="apollo-st"/>',
        '- owner:: [[Ada Lovelace]] <roam uid="apollo-ow"/>',
        '- ## Goals <roam uid="apollo-gl"/>',
        '  - Ship the [[Roam Companion]] beta by [[December 1st, 2026]] <roam uid="apollo-g1"/>',
        '  - Reuse the sync engine from [[Project Hermes]] <roam uid="apollo-g2"/>',
        '- Decisions <roam uid="apollo-dc"/>',
        '  - Use the Local API instead of scraping the UI #decision <roam uid="apollo-d1" refs="1"/>',
        '    - Reason: tokens give a ^^clear security boundary^^ <roam uid="apollo-d2"/>',
      ].join('\n'),
    });
    expect(await result('data.ai.getPage', [{ uid: 'compan-pg' }])).toMatchObject({
      markdown: [
        '# Roam Companion <roam uid="compan-pg" refs="2"/>',
        '',
        '- A tray app and MCP server for [[Roam Research]] <roam uid="compan-b1"/>',
        '- Part of [[Project Apollo]]; see [Use the Local API instead of scraping the UI #decision](((apollo-d1))) <roam uid="compan-b2"/>',
      ].join('\n'),
    });
  });

  it('respects maxDepth and answers null for a missing page', async () => {
    const shallow = (await result('data.ai.getPage', [{ title: 'Project Apollo', maxDepth: 1 }])) as {
      markdown: string;
    };
    expect(shallow.markdown.split('\n')).toHaveLength(6);
    expect(shallow.markdown).not.toContain('apollo-g1');
    expect(await result('data.ai.getPage', [{ title: 'No Such Page' }])).toBeNull();
  });

  it('renders a block with its breadcrumb path', async () => {
    expect(await result('data.ai.getBlock', [{ uid: 'apollo-d1', maxDepth: 1 }])).toMatchObject({
      markdown: [
        '- Use the Local API instead of scraping the UI #decision <roam uid="apollo-d1" refs="1"/>',
        '  - Reason: tokens give a ^^clear security boundary^^ <roam uid="apollo-d2"/>',
      ].join('\n'),
      path: 'Project Apollo > Decisions',
    });
  });

  it('returns the guidelines object: the roam/agent guidelines page (or null), shortcuts, today', async () => {
    const answer = (await result('data.ai.getGraphGuidelines', [])) as {
      guidelines: string | null;
      starredPages: string[];
      todaysDailyNotePage: string;
      queriedAt: string;
    };
    expect(answer.guidelines!.split('\n')[0]).toBe('# roam/agent guidelines <roam uid="agent-gd"/>');
    expect(answer.guidelines).toContain(
      '- Write dates as ISO dates (YYYY-MM-DD) in block text <roam uid="agent-g1"/>',
    );
    expect(answer.starredPages).toEqual(['Project Apollo']);
    const now = new Date();
    expect(answer.todaysDailyNotePage).toMatch(
      new RegExp(`^\\w+ ${now.getDate()}(st|nd|rd|th), ${now.getFullYear()}$`),
    );
    expect(Number.isNaN(Date.parse(answer.queriedAt))).toBe(false);
    const other = emulator.graph('demo');
    other.run('data.page.update', [{ page: { uid: 'agent-gd', title: 'old guidelines' } }]);
    expect(
      ((await result('data.ai.getGraphGuidelines', [])) as { guidelines: unknown }).guidelines,
    ).toBeNull();
    other.run('data.page.update', [{ page: { uid: 'agent-gd', title: 'roam/agent guidelines' } }]);
  });
});

describe('linkedReferences beside the markdown (newer builds)', () => {
  it('previews the first references of a page or block, with an explicit zero when none', async () => {
    const page = (await result('data.ai.getPage', [{ uid: 'compan-pg' }])) as {
      uid: string;
      linkedReferences: { total: number; shown: number; results: Array<{ uid: string }> };
    };
    expect(page.uid).toBe('compan-pg');
    expect(page.linkedReferences.shown).toBe(page.linkedReferences.results.length);
    expect(page.linkedReferences.total).toBeGreaterThan(0);
    const block = (await result('data.ai.getBlock', [{ uid: 'apollo-d2' }])) as {
      linkedReferences: unknown;
    };
    expect(block.linkedReferences).toEqual({ total: 0, shown: 0, results: [] });
  });
});
