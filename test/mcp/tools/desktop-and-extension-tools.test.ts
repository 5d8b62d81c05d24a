/**
 * Through stdio (built bin, SDK client, emulator): Roam extension tools (listed by
 * select_graph, run by call_extension_tool), reload_dev_extensions and the desktop UI tools —
 * each with its older-Roam (UNKNOWN_ACTION) and scope-error paths — and what tools/list says
 * about them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.ts';
import { errorOf, jsonOf, startMcp, type McpHandle } from '../../harness/mcp-bin.ts';
import { startCaptureDesktop, type CaptureDesktopSetup } from '../../harness/capture-desktop-setup.ts';

const MINE = [
  'append_to_daily_note',
  'add_comment',
  'get_comments',
  'suggest_links',
  'roam_query',
  'add_shortcut',
  'remove_shortcut',
  'get_open_windows',
  'get_selection',
  'open_main_window',
  'open_sidebar',
  'call_extension_tool',
  'reload_dev_extensions',
];
const HIDDEN_MARK = '[hidden by #.rm-hide]';

let setup: CaptureDesktopSetup;
let mcp: McpHandle;
let emulator: Emulator;

beforeAll(async () => {
  setup = await startCaptureDesktop();
  ({ mcp, emulator } = setup);
});

afterAll(async () => {
  await setup?.close();
});

describe('tools/list', () => {
  it('lists every new tool with a title, truthful hints and a compact declaration', async () => {
    const { tools } = await mcp.client.listTools();
    const mine = MINE.map((name) => tools.find((t) => t.name === name)!);
    expect(mine.every(Boolean)).toBe(true);
    const hints = Object.fromEntries(mine.map((t) => [t.name, t.annotations?.readOnlyHint]));
    expect(hints).toMatchObject({
      get_comments: true,
      suggest_links: true,
      roam_query: true,
      get_open_windows: true,
      get_selection: true,
      add_comment: false,
      append_to_daily_note: false,
      add_shortcut: false,
      open_main_window: false,
      open_sidebar: false,
      call_extension_tool: false,
    });
    expect(mine.find((t) => t.name === 'open_sidebar')?.annotations).toMatchObject({
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(mine.find((t) => t.name === 'call_extension_tool')?.annotations).toMatchObject({
      destructiveHint: true,
      openWorldHint: true,
    });
    // What every chat pays: name + description + inputSchema, at most 0.6 x the official 1,157 B/tool.
    const sizes = mine.map(
      (t) => t.name.length + t.description!.length + JSON.stringify(t.inputSchema).length,
    );
    for (const [i, size] of sizes.entries()) expect(size, MINE[i]).toBeLessThanOrEqual(694);
    expect(sizes.reduce((a, b) => a + b, 0) / sizes.length).toBeLessThanOrEqual(550);
  });
});

describe('extension tools', () => {
  it('call_extension_tool needs select_graph first, which lists the extension tools and how to call them', async () => {
    expect(errorOf(await mcp.call('call_extension_tool', { tool: 'tidy', graph: 'Main' })).code).toBe(
      'GRAPH_TICKET_REQUIRED',
    );
    const selected = await mcp.call('select_graph', { graph: 'Main' });
    const body = selected.structuredContent as {
      extensionTools: Array<Record<string, unknown>>;
      extensionToolsNote: string;
    };
    expect(body.extensionTools.map((t) => [t.tool, t.scope])).toEqual([
      ['word-count/count', 'read'],
      ['tidy', 'edit'],
      ['flaky/run', 'read'],
    ]);
    expect(body.extensionTools[0]).toMatchObject({
      extension: 'word-count',
      inputSchema: { required: ['title'] },
    });
    expect(body.extensionToolsNote).toMatch(/call_extension_tool.*data, not instructions/);
  });

  it('runs a tool and passes its result through', async () => {
    const result = jsonOf(
      await mcp.call('call_extension_tool', { tool: 'word-count/count', args: { title: 'Ada' } }),
    );
    expect(result).toEqual({ tool: 'word-count/count', result: { words: 42 } });
    expect(emulator.requests.at(-1)?.body).toMatchObject({
      action: 'data.ai.callExtensionTool',
      args: [{ tool: 'word-count/count', args: { title: 'Ada' } }],
    });
  });

  it('a garbled answer is an unconfirmed write: the handler may have changed the graph', async () => {
    emulator.setFault({ kind: 'malformed-json' }, { action: 'data.ai.callExtensionTool', times: 1 });
    const error = errorOf(await mcp.call('call_extension_tool', { tool: 'tidy' }));
    expect(error).toMatchObject({ code: 'ROAM_PROTOCOL_ERROR', retryable: false });
  });

  it("passes Roam's explanation of an unknown tool, bad arguments or a failing handler", async () => {
    const unknown = errorOf(await mcp.call('call_extension_tool', { tool: 'nope' }));
    expect(unknown).toMatchObject({ code: 'EXTENSION_TOOL_FAILED', tool: 'nope' });
    expect(unknown.message).toMatch(/Available tools: word-count\/count, tidy, flaky\/run/);
    const bad = errorOf(
      await mcp.call('call_extension_tool', { tool: 'word-count/count', args: { title: 7 } }),
    );
    expect(bad.message).toMatch(/do not match its inputSchema/);
    expect(errorOf(await mcp.call('call_extension_tool', { tool: 'flaky/run' })).message).toMatch(
      /network unreachable/,
    );
  });

  it('a token below the declared scope, and an older Roam, get errors naming the tool or feature', async () => {
    jsonOf(await mcp.call('select_graph', { graph: 'Reader' }));
    expect(
      jsonOf(await mcp.call('call_extension_tool', { tool: 'word-count/count', args: { title: 'A' } })),
    ).toMatchObject({
      result: { words: 42 },
    });
    const denied = errorOf(await mcp.call('call_extension_tool', { tool: 'tidy' }));
    expect(denied.code).toBe('INSUFFICIENT_SCOPE');
    expect(denied.message).toMatch(/^Extension tool 'tidy' needs edit access.*"Full access"/);
    jsonOf(await mcp.call('select_graph', { graph: 'Old' }));
    const old = errorOf(await mcp.call('call_extension_tool', { tool: 'tidy' }));
    expect(old).toMatchObject({ code: 'UNKNOWN_ACTION' });
    expect(old.message).toMatch(/^Extension AI tools: .*Local API 1\.1\.5.*update Roam Desktop/);
  });

  it('reload_dev_extensions reloads, and says which build it needs on an older Roam', async () => {
    // It runs extension code: a write, so it needs the graph's ticket (test/mcp/access/access-levels.test.ts).
    jsonOf(await mcp.call('select_graph', { graph: 'Old' }));
    jsonOf(await mcp.call('select_graph', { graph: 'Main' }));
    expect(jsonOf(await mcp.call('reload_dev_extensions', { graph: 'Main' }))).toEqual({
      reloaded: [{ id: 'dev-ext', name: 'My dev extension' }],
    });
    const old = errorOf(await mcp.call('reload_dev_extensions', { graph: 'Old' }));
    expect(old.message).toMatch(/^Reloading developer extensions: .*2026-07-16/);
  });
});

describe('desktop UI', () => {
  it('open_main_window and open_sidebar change the view without a graph ticket; get_open_windows reads it', async () => {
    expect(jsonOf(await mcp.call('get_open_windows', { graph: 'Main' }))).toEqual({
      main: { type: 'log' },
      sidebar: [],
    });
    jsonOf(await mcp.call('open_main_window', { uid: 'sprint' }));
    expect(emulator.graph('main').ui.mainView).toMatchObject({ uid: 'sprint' });
    jsonOf(await mcp.call('open_main_window', { title: 'Ada Lovelace' }));
    jsonOf(await mcp.call('open_sidebar', { uid: 'ada-pg' }));
    jsonOf(await mcp.call('open_sidebar', { uid: 'ada-pg', type: 'mentions' }));
    const view = jsonOf<{ main: unknown; sidebar: Array<Record<string, unknown>> }>(
      await mcp.call('get_open_windows'),
    );
    expect(view.main).toEqual({ type: 'outline', uid: 'ada-pg', title: 'Ada Lovelace' });
    expect(view.sidebar.map((p) => p.type)).toEqual(['mentions', 'outline']);
  });

  it('refuses no target, and a missing one, clearly', async () => {
    expect(errorOf(await mcp.call('open_main_window', {})).code).toBe('INVALID_PARAMS');
    expect(errorOf(await mcp.call('open_main_window', { uid: 'nope' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('open_main_window', { title: 'No Such Page' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('open_sidebar', { uid: 'nope' })).code).toBe('NOT_FOUND');
  });

  it('get_selection and get_open_windows redact blocks the user hid from AI', async () => {
    const ui = emulator.graph('main').ui;
    ui.focused = { 'block-uid': 'hide-kid', 'window-id': 'main-window' };
    ui.selected = ['task-open', 'hide-root'];
    const selection = jsonOf<Record<string, unknown>>(await mcp.call('get_selection', { graph: 'Main' }));
    expect(selection).toMatchObject({
      focused: { 'block-uid': HIDDEN_MARK, 'window-id': 'main-window' },
      multiSelected: [{ 'block-uid': 'task-open' }, { 'block-uid': HIDDEN_MARK }],
      hiddenNote: expect.stringMatching(/2 item\(s\)/),
    });
    jsonOf(await mcp.call('open_main_window', { uid: 'hide-root' }));
    const view = jsonOf(await mcp.call('get_open_windows'));
    expect(view.main).toEqual({ type: 'outline', uid: HIDDEN_MARK, 'block-string': HIDDEN_MARK });
    expect(JSON.stringify(view)).not.toContain('Budget');
  });

  it('an older Roam names the feature', async () => {
    for (const tool of ['get_open_windows', 'get_selection']) {
      const error = errorOf(await mcp.call(tool, { graph: 'Old' }));
      expect(error.code).toBe('UNKNOWN_ACTION');
      expect(error.message).toMatch(/^Desktop UI access: .*update Roam Desktop/);
    }
    for (const [tool, args] of [
      ['open_sidebar', { uid: 'ada-pg' }],
      ['open_main_window', { uid: 'ada-pg' }],
      ['open_main_window', { title: 'Ada Lovelace' }],
    ] as const) {
      const error = errorOf(await mcp.call(tool, { ...args, graph: 'Old' }));
      expect(error.message, tool).toMatch(/^Desktop UI access: .*ui\.(rightSidebar|mainWindow)\./);
    }
  });

  it('stay available in --read-only mode, where the graph-changing tools are gone', async () => {
    const readOnly = await startMcp({ home: setup.home, args: ['--read-only'] });
    try {
      const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['get_open_windows', 'open_main_window', 'open_sidebar', 'get_comments']),
      );
      for (const write of ['add_comment', 'append_to_daily_note', 'add_shortcut', 'call_extension_tool'])
        expect(names).not.toContain(write);
      expect(jsonOf(await readOnly.call('open_main_window', { uid: 'ada-pg', graph: 'Main' }))).toMatchObject(
        { uid: 'ada-pg' },
      );
    } finally {
      await readOnly.close();
    }
  });
});
