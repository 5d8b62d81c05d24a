import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  home = await tempDir('emulator-ai-');
  emulator = await startEmulator({ home, graphs: [{ name: 'demo', content: 'demo' }], semanticSearch: true });
  token = emulator.addToken('demo', 'hosted', 'read-only');
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

async function result<T>(action: string, input: object): Promise<T> {
  const reply = await callAction(emulator, { graph: 'demo', token, action, args: [input] });
  if (reply.status !== 200) throw new Error(`${reply.status} ${reply.body.error?.message}`);
  return reply.body.result as T;
}

interface Hits {
  total: number;
  results: Array<{ uid: string; markdown: string; path?: string; type: string }>;
}

describe('data.ai.getBacklinks', () => {
  it('lists every block linking a page, newest first by default, with path and no page type on block hits', async () => {
    const backlinks = await result<Hits>('data.ai.getBacklinks', { title: 'Project Apollo' });
    expect(backlinks.total).toBe(5);
    // Daily notes carry their date as creation time; the other pages were written before them.
    expect(backlinks.results.map((r) => r.uid)).toEqual([
      'nov22-b2',
      'nov20-b1',
      'ada-works',
      'compan-b2',
      'hermes-sy',
    ]);
    expect(backlinks.results[0]).toEqual({
      uid: 'nov22-b2',
      markdown: '- Asked [[Alan Turing]] for feedback on [[Project Apollo]] <roam uid="nov22-b2"/>',
      path: 'November 22nd, 2026',
    });
  });

  it('sorts by daily-note date ascending, filters by search and paginates with a stable total', async () => {
    const daily = await result<Hits>('data.ai.getBacklinks', {
      title: 'Project Apollo',
      sort: 'daily-note-date',
      sortOrder: 'asc',
      limit: 2,
      offset: 3,
    });
    expect(daily.total).toBe(5);
    expect(daily.results.map((r) => r.uid)).toEqual(['nov20-b1', 'nov22-b2']);
    const filtered = await result<Hits>('data.ai.getBacklinks', { title: 'Project Apollo', search: 'SYNC' });
    expect(filtered.results.map((r) => r.uid)).toEqual(['hermes-sy']);
  });

  it('finds block references of a block, with children per maxDepth and no path when asked', async () => {
    const refs = await result<Hits>('data.ai.getBacklinks', {
      uid: 'hermes-sy',
      includePath: false,
      maxDepth: 0,
    });
    expect(refs).toEqual({
      total: 1,
      shown: 1,
      results: [
        {
          uid: 'nov21-b2',
          markdown:
            '- She suggested reusing the sync engine [Sync engine that [[Project Apollo]] builds on](((hermes-sy))) <roam uid="nov21-b2"/>',
        },
      ],
    });
    const parent = await result<Hits>('data.ai.getBacklinks', {
      title: 'Grace Hopper',
      search: 'call',
      maxDepth: 1,
    });
    expect(parent.results[0]?.markdown.split('\n')).toHaveLength(2);
  });

  it('explains a missing target and a bad sort', async () => {
    await expect(result('data.ai.getBacklinks', { title: 'Nope' })).rejects.toThrow(
      /no page or block matches "Nope"/,
    );
    await expect(result('data.ai.getBacklinks', { title: 'Project Apollo', sort: 'size' })).rejects.toThrow(
      '"sort" must be one of created-date, edited-date, daily-note-date',
    );
  });
});

describe('data.ai.search', () => {
  it('matches every word case-insensitively, pages before blocks, and scopes', async () => {
    const all = await result<Hits>('data.ai.search', { query: 'project hermes' });
    expect(all.results[0]).toEqual({
      uid: 'hermes-pg',
      markdown: '# Project Hermes <roam uid="hermes-pg" refs="3"/>',
      path: '',
      type: 'page',
    });
    expect(
      all.results
        .slice(1)
        .map((r) => r.uid)
        .sort(),
    ).toEqual(['apollo-g2', 'grace-led', 'nov21-b1']);
    expect(all.total).toBe(4);
    const blocks = await result<Hits>('data.ai.search', {
      query: 'project hermes',
      scope: 'blocks',
      limit: 1,
    });
    expect(blocks.total).toBe(3);
    expect(blocks.results).toHaveLength(1);
    expect(blocks.results[0]?.type).toBe('block');
    const pages = await result<Hits>('data.ai.search', { query: 'hopper', scope: 'pages' });
    expect(pages.results.map((r) => r.uid)).toEqual(['grace-pg']);
  });

  it('requires a query', async () => {
    await expect(result('data.ai.search', {})).rejects.toThrow('data.ai.search: "query" is required');
  });
});

describe('templates and semantic search', () => {
  it('lists blocks tagged [[roam/templates]] with their children as content', async () => {
    expect(await result('data.ai.searchTemplates', { query: 'meet' })).toEqual([
      { name: 'Meeting Notes', uid: 'templ-mtg', content: '- Attendees::\n- Agenda::\n- Notes::' },
    ]);
    expect((await result<Array<{ name: string }>>('data.ai.searchTemplates', {})).map((t) => t.name)).toEqual(
      ['Meeting Notes', 'Weekly Review'],
    );
  });

  it('ranks blocks by word overlap when semanticSearch is on', async () => {
    const found = await result<{ results: Array<{ uid: string; score: number; path: string }> }>(
      'data.ai.semanticSearch',
      {
        query: 'sync engine reuse',
        limit: 3,
      },
    );
    expect(found.results[0]).toMatchObject({ uid: 'apollo-g2', path: 'Project Apollo > Goals' });
    const scores = found.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[0]).toBeLessThanOrEqual(1);
  });
});
