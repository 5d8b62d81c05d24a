/**
 * Orientation and capture together through stdio (built bin, SDK client, emulator): select_graph's
 * orientation and extension tools come from one guidelines object; the shortcuts add_shortcut
 * edits are the starred_pages orientation reports; the AI user's name is the author of the
 * agent's comments; create_block's daily-note dates and the deletion report work on one block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startCaptureDesktop, type CaptureDesktopSetup } from '../../../harness/capture-desktop-setup.ts';

let setup: CaptureDesktopSetup;
let mcp: McpHandle;

interface Selected {
  starred_pages: string[];
  todays_daily_note: string | null;
  ai_user_name?: string;
  next_steps: string;
  roam_syntax: string;
  extensionTools?: Array<{ tool: string }>;
}

const select = async () =>
  (await mcp.call('select_graph', { graph: 'Main' })).structuredContent as unknown as Selected;

beforeAll(async () => {
  setup = await startCaptureDesktop();
  ({ mcp } = setup);
});

afterAll(async () => {
  await setup?.close();
});

describe('orientation, extension tools and capture together', () => {
  it('select_graph carries the orientation and the extension tools from one guidelines object', async () => {
    const selected = await select();
    expect(selected).toMatchObject({ starred_pages: [], ai_user_name: 'Claude (AI)' });
    expect(selected.todays_daily_note).toEqual(expect.any(String));
    expect(selected.next_steps).toMatch(/do not call select_graph again/);
    expect(selected.roam_syntax).toMatch(/<roam uid/);
    expect(selected.extensionTools?.map((t) => t.tool)).toEqual(['word-count/count', 'tidy', 'flaky/run']);
  });

  it('the shortcuts add_shortcut and remove_shortcut edit are the starred_pages select_graph reports', async () => {
    jsonOf(await mcp.call('add_shortcut', { uid: 'ada-pg', graph: 'Main' }));
    jsonOf(await mcp.call('add_shortcut', { uid: 'roam-pg', index: 0 }));
    expect((await select()).starred_pages).toEqual(['Roam Research', 'Ada Lovelace']);
    jsonOf(await mcp.call('remove_shortcut', { uid: 'roam-pg' }));
    expect((await select()).starred_pages).toEqual(['Ada Lovelace']);
  });

  it("the agent's comments are written by the AI user select_graph names", async () => {
    const { ai_user_name } = await select();
    jsonOf(await mcp.call('add_comment', { blockUid: 'sprint-a', comment: 'Read them', graph: 'Main' }));
    const comments = jsonOf<{ items: Array<{ author: string }> }>(
      await mcp.call('get_comments', { blockUid: 'sprint-a' }),
    );
    expect(comments.items.map((c) => c.author)).toEqual([ai_user_name]);
  });

  it("a block created on today's daily note by a relative date is deleted once, then NOT_FOUND", async () => {
    await select();
    const created = jsonOf<{ uids: string[] }>(
      await mcp.call('create_block', { markdown: 'merged', dailyNotePage: 'today', graph: 'Main' }),
    );
    const [uid] = created.uids;
    expect(jsonOf(await mcp.call('delete_block', { uid }))).toEqual({ deleted: 'block', uid });
    expect(errorOf(await mcp.call('delete_block', { uid })).code).toBe('NOT_FOUND');
  });
});
