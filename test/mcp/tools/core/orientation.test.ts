/**
 * select_graph through the built bin: Roam's guidelines object (current builds) or bare markdown
 * (older builds), the orientation-done note with a first step, and the compact syntax note.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator } from '../../../emulator/index.ts';
import { jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const NEWER = newToken();
const OLDER = newToken();
let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;

interface Orientation {
  guidelines: string | null;
  starred_pages: string[];
  todays_daily_note: string | null;
  user_name?: string;
  ai_user_name?: string;
  next_steps: string;
  roam_syntax: string;
}

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        {
          name: 'newer',
          content: 'demo',
          displayNames: { human: 'Ada', ai: 'Claude' },
          tokens: [{ token: NEWER, accessLevel: 'full' }],
        },
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

describe('select_graph orientation', () => {
  it("reads Roam's guidelines object: guidelines, shortcuts, today's note, display names", async () => {
    const result = await mcp.call('select_graph', { graph: 'newer' });
    const body = jsonOf<Orientation>(result);
    expect(result.structuredContent).toEqual(body);
    const roam = emulator.graph('newer').run('data.ai.getGraphGuidelines', []) as {
      guidelines: string;
      todaysDailyNotePage: string;
    };
    expect(body.guidelines).toBe(roam.guidelines);
    expect(body.starred_pages).toEqual(['Project Apollo']);
    expect(body.todays_daily_note).toBe(roam.todaysDailyNotePage);
    expect(body).toMatchObject({ user_name: 'Ada', ai_user_name: 'Claude' });
    expect(body.next_steps).toContain('Orientation for graph "newer" is done');
    expect(body.next_steps).toContain('do not call select_graph again');
    expect(body.next_steps).toContain(`get_page {"title": ${JSON.stringify(roam.todaysDailyNotePage)}}`);
  });

  it('teaches the wire format in a note small enough to pay once', async () => {
    const body = jsonOf<Orientation>(await mcp.call('select_graph', { graph: 'newer' }));
    for (const mark of ['<roam uid=', '((uid))', '[[Title]]', '__italics__'])
      expect(body.roam_syntax).toContain(mark);
    expect(Buffer.byteLength(body.roam_syntax)).toBeLessThan(400);
  });

  it('accepts the bare markdown an older build answers, and points to recent activity', async () => {
    const body = jsonOf<Orientation>(await mcp.call('select_graph', { graph: 'older' }));
    expect(body.guidelines).toMatch(/^# roam\/agent guidelines/);
    expect(body.starred_pages).toEqual([]);
    expect(body.todays_daily_note).toBeNull();
    expect(body.next_steps).toContain('search {"query": ""}');
  });
});
