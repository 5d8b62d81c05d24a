/**
 * A hidden block whose uid is short (set by an extension or an import, not Roam's 9 characters)
 * still leaves no trace in the desktop UI tools: the window id of a sidebar window or focus on it
 * is redacted with its uid, though the uid is too short to be looked for inside other ids.
 * Through the built bin against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, newToken } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';

const TOKEN = newToken();
let world: StdioWorld;

beforeAll(async () => {
  world = await startStdioWorld({
    prefix: 'roam-short-uid-',
    emulator: {
      graphs: [
        {
          name: 'short',
          tokens: [{ token: TOKEN, accessLevel: 'full' }],
          content: [
            {
              title: 'Diary',
              children: [
                { string: 'visible', uid: 'shown-blk' },
                { string: 'private thoughts #.rm-private', uid: 'q7' },
              ],
            },
          ],
        },
      ],
    },
    config: [{ name: 'short', token: TOKEN }],
  });
});

afterAll(async () => {
  await world?.close();
});

describe('a hidden block with a short uid', () => {
  it('leaves neither its uid nor its window id in get_open_windows and get_selection', async () => {
    const ui = world.emulator.graph('short').ui;
    ui.sidebar = [
      { type: 'block', 'window-id': 'sb-q7', 'block-uid': 'q7', order: 0 },
      { type: 'block', 'window-id': 'sb-shown-blk', 'block-uid': 'shown-blk', order: 1 },
    ];
    ui.focused = { 'block-uid': 'q7', 'window-id': 'sb-q7' };
    const windows = JSON.stringify(jsonOf(await world.mcp.call('get_open_windows')));
    const selection = JSON.stringify(jsonOf(await world.mcp.call('get_selection')));
    for (const answer of [windows, selection]) {
      expect(answer).not.toContain('q7');
      expect(answer).not.toContain('private thoughts');
    }
    expect(windows).toContain('sb-shown-blk');
  });
});
