/**
 * The capture and desktop actions over real HTTP, as Roam answers them: comments, shortcuts, daily-note capture, link suggestions, Roam
 * queries, extension tools, developer extensions and the desktop UI actions.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction, type Reply } from './http-client.ts';
import { startEmulator } from './index.ts';
import { EXTENSION_TOOLS, HIDDEN_TEXT, captureDesktopGraph } from './capture-desktop-graph.ts';
import { dateToPageTitle } from './roam-dates.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
const tokens = { full: '', append: '', read: '' };

beforeAll(async () => {
  home = await tempDir('emulator-capture-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'g',
        content: captureDesktopGraph(),
        displayNames: { ai: 'Claude (AI)' },
        comments: [
          { block: 'task-open', author: 'Ada', createdTime: '2026-01-05T10:00:00.000Z', text: 'Due Friday' },
        ],
        extensionTools: EXTENSION_TOOLS,
        developerExtensions: [{ id: 'dev-ext', name: 'My dev extension' }],
      },
      { name: 'old', content: captureDesktopGraph(), missingActions: ['data.ai.suggestLinks'] },
    ],
  });
  tokens.full = emulator.addToken('g', 'hosted', 'full');
  tokens.append = emulator.addToken('g', 'hosted', 'read-append');
  tokens.read = emulator.addToken('g', 'hosted', 'read-only');
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

function call(action: string, args: unknown[], token = tokens.full, graph = 'g'): Promise<Reply> {
  return callAction(emulator, { graph, token, action, args });
}

async function ok<T = Record<string, unknown>>(
  action: string,
  args: unknown[],
  token = tokens.full,
): Promise<T> {
  const reply = await call(action, args, token);
  if (reply.status !== 200) throw new Error(`${action}: ${reply.status} ${reply.body.error?.message}`);
  return reply.body.result as T;
}

describe('comments', () => {
  it('addComment needs append scope and exactly one body; a page cannot be commented on', async () => {
    const denied = await call(
      'data.block.addComment',
      [{ 'block-uid': 'ada-b1', 'reply-string': 'x' }],
      tokens.read,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.error?.code).toBe('INSUFFICIENT_SCOPE');
    const both = await call('data.block.addComment', [
      { 'block-uid': 'ada-b1', 'reply-string': 'a', 'reply-markdown': 'b' },
    ]);
    expect(both.status).toBe(500);
    expect(both.body.error?.message).toMatch(/exactly one of "reply-string" and "reply-markdown"/);
    const page = await call('data.block.addComment', [{ 'block-uid': 'ada-pg', 'reply-string': 'x' }]);
    expect(page.body.error?.message).toMatch(/is a page; comments attach to blocks/);
  });

  it('adds to the caller’s comment of the day; getComments lists author, times, markdown and the editable uid', async () => {
    const first = await ok<{ uids: string[]; parentUid: string }>(
      'data.block.addComment',
      [{ 'block-uid': 'task-open', 'reply-string': 'On it' }],
      tokens.append,
    );
    expect(first.uids).toHaveLength(1);
    const second = await ok<{ uids: string[]; parentUid: string }>('data.block.addComment', [
      { 'block-uid': 'task-open', 'reply-markdown': '- step one\n  - detail\n- step two' },
    ]);
    expect(second.parentUid).toBe(first.parentUid);
    expect(second.uids).toHaveLength(2);
    const thread = await ok<{ total: number; comments: Array<Record<string, unknown>> }>(
      'data.ai.getComments',
      [{ uid: 'task-open' }],
    );
    expect(thread.total).toBe(2);
    const [human, mine] = thread.comments;
    expect(human).toMatchObject({ author: 'Ada', createdTime: '2026-01-05T10:00:00.000Z' });
    expect(human?.singleEditableUid).toEqual(expect.any(String));
    expect(human?.markdown).toMatch(/^- Due Friday <roam uid=/);
    expect(mine).toMatchObject({
      author: 'Claude (AI)',
      parentUid: first.parentUid,
      singleEditableUid: null,
    });
    expect(mine?.markdown).toContain('  - detail');
    const shallow = await ok<{ comments: Array<{ markdown: string }> }>('data.ai.getComments', [
      { uid: 'task-open', maxDepth: 0 },
    ]);
    expect(shallow.comments[1]?.markdown).not.toContain('detail');
    // Comments reference the block: they count toward its refs.
    const block = await ok<{ markdown: string }>('data.ai.getBlock', [{ uid: 'task-open' }]);
    expect(block.markdown).toMatch(/<roam uid="task-open" refs="2"\/>/);
  });
});

describe('shortcuts', () => {
  it('need edit scope, take positional args, insert at an index, move, and show as starredPages', async () => {
    expect((await call('data.page.addShortcut', ['ada-pg'], tokens.append)).status).toBe(403);
    await ok('data.page.addShortcut', ['ada-pg']);
    await ok('data.page.addShortcut', ['roam-pg']);
    await ok('data.page.addShortcut', ['apollo-pg', 0]);
    const starred = async () =>
      (await ok<{ starredPages: string[] }>('data.ai.getGraphGuidelines', [])).starredPages;
    expect(await starred()).toEqual(['Project Apollo', 'Ada Lovelace', 'Roam Research']);
    await ok('data.page.addShortcut', ['apollo-pg', 99]);
    expect(await starred()).toEqual(['Ada Lovelace', 'Roam Research', 'Project Apollo']);
    await ok('data.page.removeShortcut', ['roam-pg']);
    await ok('data.page.removeShortcut', ['roam-pg']);
    expect(await starred()).toEqual(['Ada Lovelace', 'Project Apollo']);
  });

  it('reject a fractional index, a block uid and an unknown uid', async () => {
    expect((await call('data.page.addShortcut', ['ada-pg', 1.5])).body.error?.message).toMatch(/integer/);
    expect((await call('data.page.addShortcut', ['ada-b1'])).body.error?.message).toMatch(/is a block/);
    expect((await call('data.page.removeShortcut', ['nope'])).body.error?.message).toMatch(
      /no page with uid "nope"/,
    );
  });
});

describe('daily-note capture (data.block.fromMarkdown)', () => {
  it('targets a daily note by MM-DD-YYYY, nests under a section found or created, and returns the uids', async () => {
    const location = {
      'page-title': { 'daily-note-page': '03-17-2026' },
      order: 'last',
      'nest-under-str': 'TODOs',
    };
    const first = await ok<{ uids: string[] }>('data.block.fromMarkdown', [
      { location, 'markdown-string': '- buy milk\n- call Ada', open: false },
    ]);
    expect(first.uids).toHaveLength(2);
    await ok('data.block.fromMarkdown', [{ location, 'markdown-string': 'third' }]);
    const page = await ok<{ markdown: string }>('data.ai.getPage', [{ title: 'March 17th, 2026' }]);
    const lines = page.markdown.split('\n').filter((l) => l.startsWith('-') || l.startsWith(' '));
    expect(lines.map((l) => l.replace(/ <roam[^>]*>/, ''))).toEqual([
      '- TODOs',
      '  - buy milk',
      '  - call Ada',
      '  - third',
    ]);
    const open = await ok<unknown[]>('data.q', [
      `[:find ?o . :where [?b :block/uid "${first.uids[0]}"] [?b :block/open ?o]]`,
    ]);
    expect(open).toBe(false);
    expect(dateToPageTitle(new Date(Date.UTC(2026, 2, 17)))).toBe('March 17th, 2026');
  });

  it('rejects a malformed daily-note date', async () => {
    const reply = await call('data.block.fromMarkdown', [
      { location: { 'page-title': { 'daily-note-page': '2026-03-17' } }, 'markdown-string': 'x' },
    ]);
    expect(reply.status).toBe(500);
    expect(reply.body.error?.message).toMatch(/MM-DD-YYYY/);
  });
});

describe('discovery', () => {
  it('suggestLinks names existing, unlinked pages found in the text, longest first', async () => {
    const result = await ok<{ suggestions: Array<{ title: string; uid: string }> }>(
      'data.ai.suggestLinks',
      [{ text: 'Met ada lovelace about project apollo; see [[Roam Research]].' }],
      tokens.read,
    );
    expect(result.suggestions.map((s) => s.title)).toEqual(['Project Apollo', 'Ada Lovelace']);
    expect(result.suggestions[0]?.uid).toBe('apollo-pg');
    const one = await ok<{ suggestions: unknown[] }>('data.ai.suggestLinks', [
      { text: 'ada lovelace, project apollo', maxResults: 1 },
    ]);
    expect(one.suggestions).toHaveLength(1);
    expect((await call('data.ai.suggestLinks', [{ text: 'x', maxResults: 0 }])).body.error?.message).toMatch(
      /positive integer/,
    );
  });

  it('an older build answers UNKNOWN_ACTION for suggestLinks', async () => {
    const old = emulator.addToken('old', 'hosted', 'full');
    const reply = await call('data.ai.suggestLinks', [{ text: 'x' }], old, 'old');
    expect(reply.status).toBe(404);
    expect(reply.body.error?.code).toBe('UNKNOWN_ACTION');
  });

  it('roamQuery runs Roam query syntax and saved query blocks, leaving out hidden blocks', async () => {
    const open = await ok<{ total: number; results: Array<{ uid: string; path: string }> }>(
      'data.ai.roamQuery',
      [{ query: '{and: [[TODO]] {not: [[DONE]]}}' }],
      tokens.read,
    );
    expect(open.results.map((r) => r.uid)).toEqual(['task-open']);
    expect(open.results[0]?.path).toBe('Project Apollo');
    expect(JSON.stringify(open)).not.toContain(HIDDEN_TEXT);
    const saved = await ok<{ results: Array<{ uid: string }> }>('data.ai.roamQuery', [{ uid: 'query-blk' }]);
    expect(saved.results.map((r) => r.uid)).toEqual(['task-open']);
    const inherited = await ok<{ results: Array<{ uid: string }> }>('data.ai.roamQuery', [
      { query: '{and: [[Project Apollo]] [[Ada Lovelace]]}' },
    ]);
    expect(inherited.results.map((r) => r.uid)).toEqual(['sprint-a']);
  });

  it('roamQuery rejects both or neither of uid/query, bad syntax and a block without a query', async () => {
    expect((await call('data.ai.roamQuery', [{}])).body.error?.message).toMatch(/exactly one of "uid"/);
    expect((await call('data.ai.roamQuery', [{ query: '{and: [[TODO]]' }])).body.error?.message).toMatch(
      /unclosed \{/,
    );
    expect((await call('data.ai.roamQuery', [{ uid: 'ada-b1' }])).body.error?.message).toMatch(
      /no \{\{query/,
    );
  });
});

describe('extensions', () => {
  it('getGraphGuidelines lists the extension tools as declared', async () => {
    const result = await ok<{ extensionTools: Array<Record<string, unknown>> }>(
      'data.ai.getGraphGuidelines',
      [],
    );
    expect(result.extensionTools.map((t) => [t.tool, t.scope])).toEqual([
      ['word-count/count', 'read'],
      ['tidy', 'edit'],
      ['flaky/run', 'read'],
    ]);
    expect(result.extensionTools[0]).not.toHaveProperty('result');
  });

  it('callExtensionTool checks the declared scope, the schema, and passes the result through', async () => {
    const counted = await ok<{ tool: string; result: unknown }>(
      'data.ai.callExtensionTool',
      [{ tool: 'word-count/count', args: { title: 'Ada Lovelace' } }],
      tokens.read,
    );
    expect(counted).toMatchObject({ tool: 'word-count/count', result: { words: 42 } });
    const denied = await call('data.ai.callExtensionTool', [{ tool: 'tidy' }], tokens.append);
    expect(denied.status).toBe(403);
    expect(denied.body.error?.code).toBe('INSUFFICIENT_SCOPE');
    expect((await ok('data.ai.callExtensionTool', [{ tool: 'tidy' }])).result).toEqual({ sorted: 3 });
  });

  it('answers unknown tools, bad arguments and failing handlers with 500s written for the model', async () => {
    const unknown = await call('data.ai.callExtensionTool', [{ tool: 'nope' }]);
    expect(unknown.status).toBe(500);
    expect(unknown.body.error?.message).toMatch(/Available tools: word-count\/count, tidy, flaky\/run/);
    const bad = await call('data.ai.callExtensionTool', [{ tool: 'word-count/count', args: { title: 3 } }]);
    expect(bad.body.error?.message).toMatch(/do not match its inputSchema/);
    const failed = await call('data.ai.callExtensionTool', [{ tool: 'flaky/run' }]);
    expect(failed.body.error?.message).toMatch(/failed: network unreachable/);
  });

  it('reloads developer extensions', async () => {
    expect(await ok('depot.reloadDeveloperExtensions', [], tokens.read)).toEqual({
      reloaded: [{ id: 'dev-ext', name: 'My dev extension' }],
    });
  });
});

describe('desktop UI', () => {
  it('reads the main view, sidebar, focus and selection with a read-only token', async () => {
    const ui = emulator.graph('g').ui;
    ui.focused = { 'block-uid': 'sprint-a', 'window-id': 'main-window' };
    ui.selected = ['task-open', 'task-done'];
    expect(await ok('ui.mainWindow.getOpenView', [], tokens.read)).toEqual({ type: 'log' });
    expect(await ok('ui.rightSidebar.getWindows', [], tokens.read)).toEqual([]);
    expect(await ok('ui.getFocusedBlock', [], tokens.read)).toEqual(ui.focused);
    expect(await ok('ui.multiselect.getSelected', [], tokens.read)).toEqual([
      { 'block-uid': 'task-open' },
      { 'block-uid': 'task-done' },
    ]);
  });

  it('opens blocks and pages in the main window and panes in the sidebar (not idempotent)', async () => {
    await ok('ui.mainWindow.openBlock', [{ block: { uid: 'sprint' } }], tokens.read);
    expect(emulator.graph('g').ui.mainView).toEqual({
      type: 'outline',
      uid: 'sprint',
      'block-string': 'Sprint',
    });
    await ok('ui.mainWindow.openPage', [{ page: { title: 'Ada Lovelace' } }]);
    expect(emulator.graph('g').ui.mainView).toEqual({
      type: 'outline',
      uid: 'ada-pg',
      title: 'Ada Lovelace',
    });
    await ok('ui.rightSidebar.addWindow', [{ window: { type: 'outline', 'block-uid': 'ada-pg' } }]);
    await ok('ui.rightSidebar.addWindow', [{ window: { type: 'mentions', 'block-uid': 'ada-pg' } }]);
    const panes = await ok<Array<Record<string, unknown>>>('ui.rightSidebar.getWindows', []);
    expect(panes.map((p) => [p.type, p.order])).toEqual([
      ['mentions', 0],
      ['outline', 1],
    ]);
    expect(panes[0]?.['mentions-uid']).toBe('ada-pg');
  });

  it('refuses a missing target and an unknown pane type', async () => {
    expect((await call('ui.mainWindow.openBlock', [{ block: { uid: 'nope' } }])).status).toBe(500);
    expect((await call('ui.mainWindow.openPage', [{ page: { title: 'Nope' } }])).status).toBe(500);
    const pane = await call('ui.rightSidebar.addWindow', [
      { window: { type: 'graph', 'block-uid': 'ada-pg' } },
    ]);
    expect(pane.body.error?.message).toMatch(/block, outline, mentions/);
  });
});
