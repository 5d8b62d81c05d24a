/**
 * Through stdio (built bin, SDK client, emulator): comments, daily-note capture and relative dates
 * in create_block, shortcuts, link suggestions and Roam queries — each with its older-Roam
 * (UNKNOWN_ACTION) and scope-error paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN_TEXT } from '../../../emulator/capture-desktop-graph.ts';
import { dailyNote } from '../../../../src-mcp/roam/roam-dates.ts';
import { errorOf, jsonOf, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startCaptureDesktop, type CaptureDesktopSetup } from '../../../harness/capture-desktop-setup.ts';
import type { Emulator } from '../../../emulator/index.ts';

let setup: CaptureDesktopSetup;
let mcp: McpHandle;
let emulator: Emulator;

const run = (action: string, args: unknown[] = []) => emulator.graph('main').run(action, args);
const pageMarkdown = (title: string) =>
  (run('data.ai.getPage', [{ title }]) as { markdown: string } | null)?.markdown;

beforeAll(async () => {
  setup = await startCaptureDesktop();
  ({ mcp, emulator } = setup);
  for (const graph of ['Main', 'Old', 'Reader']) jsonOf(await mcp.call('select_graph', { graph }));
});

afterAll(async () => {
  await setup?.close();
});

/** The older build's answer: UNKNOWN_ACTION naming the feature and the update. */
async function expectOlderRoam(tool: string, args: Record<string, unknown>, feature: RegExp) {
  const error = errorOf(await mcp.call(tool, { ...args, graph: 'Old' }));
  expect(error.code, tool).toBe('UNKNOWN_ACTION');
  expect(error.message, tool).toMatch(feature);
  expect(error.message, tool).toMatch(/update Roam Desktop/);
}

async function expectScopeError(tool: string, args: Record<string, unknown>, level: RegExp) {
  const error = errorOf(await mcp.call(tool, { ...args, graph: 'Reader' }));
  expect(error.code, tool).toBe('INSUFFICIENT_SCOPE');
  expect(error.message, tool).toMatch(level);
  expect(error.message, tool).toMatch(/roam-mcp connect/);
}

describe('comments', () => {
  it('add_comment sends one body, returns the uids, and same-day comments extend the thread', async () => {
    const first = await mcp.call('add_comment', { blockUid: 'task-open', comment: 'On it', graph: 'Main' });
    expect(first.structuredContent).toMatchObject({
      uids: [expect.any(String)],
      parentUid: expect.any(String),
    });
    const second = jsonOf(
      await mcp.call('add_comment', { blockUid: 'task-open', commentMarkdown: '- a\n  - b' }),
    );
    expect(second.parentUid).toBe((first.structuredContent as { parentUid: string }).parentUid);
    const sent = emulator.requests.filter((r) => r.action === 'data.block.addComment').map((r) => r.body);
    expect(sent.at(-2)).toMatchObject({ args: [{ 'block-uid': 'task-open', 'reply-string': 'On it' }] });
    expect(sent.at(-1)).toMatchObject({
      args: [{ 'block-uid': 'task-open', 'reply-markdown': '- a\n  - b' }],
    });
  });

  it('a garbled answer to add_comment is an unconfirmed write, never retried as if nothing happened', async () => {
    emulator.setFault({ kind: 'malformed-json' }, { action: 'data.block.addComment', times: 1 });
    const error = errorOf(
      await mcp.call('add_comment', { blockUid: 'ada-b1', comment: 'maybe', graph: 'Main' }),
    );
    expect(error).toMatchObject({ code: 'ROAM_PROTOCOL_ERROR', retryable: false });
  });

  it('get_comments lists author, dates and thread, leaving out comments the user hid from AI', async () => {
    const result = jsonOf<{ total: number; items: Array<Record<string, unknown>>; hiddenNote?: string }>(
      await mcp.call('get_comments', { blockUid: 'task-open' }),
    );
    expect(result.items.map((c) => c.author)).toEqual(['Ada', 'Claude (AI)']);
    expect(result.items[0]).toMatchObject({
      createdTime: '2026-01-05T10:00:00.000Z',
      singleEditableUid: expect.any(String),
    });
    expect(result.items[1]?.markdown).toMatch(/- On it <roam uid=.*\n- a <roam.*\n {2}- b <roam/);
    expect(result).toMatchObject({ total: 2, offset: 0, limit: 20 });
    expect(result.hiddenNote).toMatch(/hid from AI/);
    const second = jsonOf(await mcp.call('get_comments', { blockUid: 'task-open', offset: 1, limit: 1 }));
    expect(second).toMatchObject({ items: [{ author: 'Claude (AI)' }], total: 2 });
    expect(second).not.toHaveProperty('nextOffset');
    expect(JSON.stringify(result)).not.toContain('salary');
  });

  it('a hidden or missing block reads as NOT_FOUND; bad bodies are INVALID_PARAMS', async () => {
    expect(errorOf(await mcp.call('get_comments', { blockUid: 'hide-kid' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('get_comments', { blockUid: 'nope' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('add_comment', { blockUid: 'nope', comment: 'x' })).code).toBe('NOT_FOUND');
    const both = errorOf(
      await mcp.call('add_comment', { blockUid: 'task-open', comment: 'a', commentMarkdown: 'b' }),
    );
    expect(both).toMatchObject({ code: 'INVALID_PARAMS', message: expect.stringMatching(/exactly one of/) });
  });

  it('older Roam and a read-only token say what is missing', async () => {
    await expectOlderRoam('get_comments', { blockUid: 'task-open' }, /^Comments: .*data\.ai\.getComments/);
    await expectOlderRoam('add_comment', { blockUid: 'task-open', comment: 'x' }, /^Adding comments/);
    await expectScopeError(
      'add_comment',
      { blockUid: 'task-open', comment: 'x' },
      /needs append access.*"Read \+ Append"/,
    );
  });
});

describe('daily-note capture', () => {
  it("append_to_daily_note goes to today's note on this machine's date, under a section found or created", async () => {
    const before = dailyNote();
    const result = await mcp.call('append_to_daily_note', {
      markdown: '- buy milk\n- call Ada',
      nestUnder: 'TODOs',
      graph: 'Main',
    });
    const after = dailyNote();
    const body = result.structuredContent as { uids: string[]; date: string; page: string };
    expect([before.uid, after.uid]).toContain(body.date);
    expect(body.uids).toHaveLength(2);
    expect(body.page).toBe(body.date === before.uid ? before.title : after.title);
    const sent = emulator.requests.filter((r) => r.action === 'data.block.fromMarkdown').at(-1)?.body;
    expect(sent).toMatchObject({
      args: [
        {
          location: {
            'page-title': { 'daily-note-page': body.date },
            order: 'last',
            'nest-under-str': 'TODOs',
          },
        },
      ],
    });
    expect(pageMarkdown(body.page)).toMatch(
      /- TODOs <roam[^\n]*\n {2}- buy milk <roam[^\n]*\n {2}- call Ada/,
    );
  });

  it('accepts yesterday / MM-DD-YYYY / YYYY-MM-DD and refuses dates that do not exist', async () => {
    const yesterday = jsonOf(await mcp.call('append_to_daily_note', { markdown: 'y', date: ' Yesterday ' }));
    const now = new Date();
    const expected = dailyNote(
      new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() - 1)).toISOString().slice(0, 10),
    );
    expect(yesterday.date).toBe(expected.uid);
    expect(
      jsonOf(await mcp.call('append_to_daily_note', { markdown: 'z', date: '03-17-2026' })),
    ).toMatchObject({
      date: '03-17-2026',
      page: 'March 17th, 2026',
    });
    expect(jsonOf(await mcp.call('append_to_daily_note', { markdown: 'z', date: '2026-03-18' })).date).toBe(
      '03-18-2026',
    );
    const bad = errorOf(await mcp.call('append_to_daily_note', { markdown: 'z', date: '02-30-2026' }));
    expect(bad).toMatchObject({ code: 'INVALID_PARAMS', field: 'date' });
    expect(errorOf(await mcp.call('append_to_daily_note', { markdown: 'z', date: 'next week' })).code).toBe(
      'INVALID_PARAMS',
    );
  });

  it('create_block takes the same relative dates and nestUnder, and returns the new uids', async () => {
    const result = jsonOf<{ uids: string[]; parentUid: string }>(
      await mcp.call('create_block', {
        markdown: 'from create_block',
        dailyNotePage: 'tomorrow',
        nestUnder: 'Inbox',
      }),
    );
    const now = new Date();
    const tomorrow = dailyNote(
      new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + 1)).toISOString().slice(0, 10),
    );
    expect(result.parentUid).toBe(tomorrow.uid);
    expect(result.uids).toHaveLength(1);
    expect(pageMarkdown(tomorrow.title)).toMatch(/- Inbox <roam[^\n]*\n {2}- from create_block/);
    expect(
      jsonOf(await mcp.call('create_block', { markdown: 'x', dailyNotePage: '03-17-2026' })).parentUid,
    ).toBe('03-17-2026');
  });

  it('an older Roam and a read-only token are clear errors', async () => {
    await expectOlderRoam(
      'append_to_daily_note',
      { markdown: 'x' },
      /^Daily-note capture: .*data\.block\.fromMarkdown/,
    );
    await expectScopeError(
      'append_to_daily_note',
      { markdown: 'x' },
      /^Daily-note capture needs append access/,
    );
  });
});

describe('shortcuts', () => {
  it('add_shortcut and remove_shortcut send positional args and change the starred pages', async () => {
    jsonOf(await mcp.call('add_shortcut', { uid: 'ada-pg', graph: 'Main' }));
    expect(jsonOf(await mcp.call('add_shortcut', { uid: 'roam-pg', index: 0 }))).toMatchObject({
      success: true,
      index: 0,
    });
    const sent = emulator.requests
      .filter((r) => r.action === 'data.page.addShortcut')
      .map((r) => (r.body as { args: unknown }).args);
    expect(sent.slice(-2)).toEqual([['ada-pg'], ['roam-pg', 0]]);
    expect((run('data.ai.getGraphGuidelines') as { starredPages: string[] }).starredPages).toEqual([
      'Roam Research',
      'Ada Lovelace',
    ]);
    jsonOf(await mcp.call('remove_shortcut', { uid: 'roam-pg' }));
    expect((run('data.ai.getGraphGuidelines') as { starredPages: string[] }).starredPages).toEqual([
      'Ada Lovelace',
    ]);
  });

  it('a missing page is NOT_FOUND, a negative index INVALID_PARAMS; older Roam and edit scope are clear', async () => {
    expect(errorOf(await mcp.call('add_shortcut', { uid: 'nope' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('add_shortcut', { uid: 'ada-pg', index: -1 })).code).toBe('INVALID_PARAMS');
    await expectOlderRoam('add_shortcut', { uid: 'ada-pg' }, /^Sidebar shortcuts: .*Local API 1\.1\.3/);
    await expectOlderRoam('remove_shortcut', { uid: 'ada-pg' }, /^Sidebar shortcuts/);
    await expectScopeError('remove_shortcut', { uid: 'ada-pg' }, /needs edit access.*"Full access"/);
  });
});

describe('discovery', () => {
  it('suggest_links passes Roam’s suggestions through', async () => {
    const result = jsonOf<{ suggestions: Array<{ title: string }> }>(
      await mcp.call('suggest_links', {
        text: 'Notes on project apollo with ada lovelace',
        maxResults: 5,
        graph: 'Main',
      }),
    );
    expect(result.suggestions.map((s) => s.title)).toEqual(['Project Apollo', 'Ada Lovelace']);
    await expectOlderRoam('suggest_links', { text: 'x' }, /^Link suggestions: .*2026-07-08/);
  });

  it('roam_query runs query syntax and saved query blocks, paginated, without hidden blocks', async () => {
    const result = await mcp.call('roam_query', { query: '{and: [[TODO]] {not: [[DONE]]}}', graph: 'Main' });
    expect(result.structuredContent).toMatchObject({
      total: 1,
      items: [{ uid: 'task-open', type: 'block', path: 'Project Apollo' }],
    });
    expect(JSON.stringify(result)).not.toContain(HIDDEN_TEXT);
    expect(jsonOf(await mcp.call('roam_query', { uid: 'query-blk' }))).toMatchObject({
      items: [{ uid: 'task-open' }],
    });
    const all = jsonOf(await mcp.call('roam_query', { query: '[[TODO]]', limit: 1 }));
    expect(all).toMatchObject({ total: 2, nextOffset: 1 });
  });

  it('roam_query refuses both or neither of query/uid, a missing uid, and bad syntax clearly', async () => {
    expect(errorOf(await mcp.call('roam_query', {})).code).toBe('INVALID_PARAMS');
    expect(errorOf(await mcp.call('roam_query', { query: '[[A]]', uid: 'x' })).code).toBe('INVALID_PARAMS');
    expect(errorOf(await mcp.call('roam_query', { uid: 'nope' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('roam_query', { query: '{and: [[TODO]]' })).message).toMatch(/unclosed \{/);
    await expectOlderRoam('roam_query', { query: '[[TODO]]' }, /^Roam queries/);
  });
});
