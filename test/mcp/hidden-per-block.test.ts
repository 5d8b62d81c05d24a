/**
 * The hiding rule applies per block, never per line: a block whose
 * `#.rm-hide` / `#.rm-private` tag sits on its second line is hidden whole, with what is nested
 * under it, in every answer we filter ourselves — templates, comments — and its uid does not
 * survive inside the desktop UI's window ids. Through the built bin against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { jsonOf, newToken, removeHome, startMcp, tempHome, type McpHandle } from '../harness/mcp-bin.ts';

const TOKEN = newToken();
let home: string;
let emulator: Emulator;
let mcp: McpHandle;

beforeAll(async () => {
  home = await tempHome();
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'hiding',
        tokens: [{ token: TOKEN, accessLevel: 'full' }],
        content: [
          {
            title: 'Templates',
            children: [
              {
                string: 'Meeting [[roam/templates]]',
                uid: 'tmpl-meet',
                children: [
                  'Agenda',
                  {
                    string: 'FIRST LINE LEAK\nsecond line #.rm-hide',
                    uid: 'two-lines',
                    children: ['NESTED LEAK'],
                  },
                  { string: 'PRIVATE FIRST\n[[.rm-private]] on line two', uid: 'private-2' },
                  'After',
                ],
              },
            ],
          },
          { title: 'Work', children: [{ string: 'Commented task', uid: 'task-1' }] },
        ],
        comments: [
          {
            block: 'task-1',
            author: 'Grace',
            createdTime: '2026-01-06T10:00:00.000Z',
            text: 'COMMENT FIRST LINE\nsalary #.rm-hide',
          },
          { block: 'task-1', author: 'Ada', createdTime: '2026-01-07T10:00:00.000Z', text: 'Due Friday' },
        ],
      },
    ],
  });
  mcp = await startMcp({ home, env: { ROAM_GRAPH: 'hiding', ROAM_API_TOKEN: TOKEN } });
});

afterAll(async () => {
  await mcp?.close();
  await emulator?.close();
  await removeHome(home);
});

describe('a block hidden by a tag on its second line', () => {
  it('search_templates leaves out every line of it and what is nested under it', async () => {
    const result = jsonOf<{ items: Array<{ content: string }>; hiddenNote?: string }>(
      await mcp.call('search_templates', { query: 'Meeting' }),
    );
    const content = result.items[0]!.content;
    expect(content).toContain('Agenda');
    expect(content).toContain('After');
    for (const leak of ['FIRST LINE LEAK', 'second line', 'NESTED LEAK', 'PRIVATE FIRST', 'rm-private'])
      expect(content, leak).not.toContain(leak);
    expect(result.hiddenNote).toBeDefined();
  });

  it('get_comments leaves out every line of it', async () => {
    const result = jsonOf<{ items: Array<{ markdown: string; author: string }> }>(
      await mcp.call('get_comments', { blockUid: 'task-1' }),
    );
    const text = JSON.stringify(result);
    expect(text).not.toContain('COMMENT FIRST LINE');
    expect(text).not.toContain('salary');
    expect(result.items.map((c) => c.author)).toEqual(['Ada']);
  });

  it('its uid survives nowhere in the desktop UI tools, window ids included', async () => {
    const ui = emulator.graph('hiding').ui;
    ui.sidebar = [
      { type: 'block', 'window-id': 'sidebar-block-two-lines-1', 'block-uid': 'two-lines', order: 0 },
      { type: 'outline', 'window-id': 'sidebar-outline-tmpl-meet-2', 'block-uid': 'tmpl-meet', order: 1 },
    ];
    ui.focused = { 'block-uid': 'two-lines', 'window-id': 'sidebar-block-two-lines-1' };
    const windows = JSON.stringify(jsonOf(await mcp.call('get_open_windows')));
    const selection = JSON.stringify(jsonOf(await mcp.call('get_selection')));
    expect(windows).not.toContain('two-lines');
    expect(selection).not.toContain('two-lines');
    expect(windows).toContain('sidebar-outline-tmpl-meet-2');
  });
});
