/**
 * The words of the change journal and undo, as the agent (list_changes, undo_changes) and the
 * person in a terminal (roam-mcp changes / undo) read them, through the built bin against the
 * emulator: places by their page or words, never by a uid a person cannot read; counts in plain
 * plurals, never "(s)"; a page's own place named as the page, never as ''.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld([
    { title: 'Hiring', uid: 'hiringpg1', children: [{ string: 'Hiring plan', uid: 'hireplan1' }] },
    { title: 'Archive', uid: 'archivep1', children: [{ string: 'Old plans', uid: 'oldplans1' }] },
  ]);
  agent = await world.agent();
});
afterAll(() => world.close());

const UIDS = /hiringpg1|hireplan1|archivep1|oldplans1/;

interface Listed {
  changes: Array<{ id: string; summary: string; tool: string }>;
}
interface Report {
  summary?: string;
  changes: Array<{ result: string; steps: Array<{ status: string; detail: string }> }>;
}

it('a move and a create say their places without a uid, to the agent and in the terminal', async () => {
  jsonOf(await agent.call('move_block', { uid: 'hireplan1', parentUid: 'oldplans1', order: 'last' }));
  jsonOf(await agent.call('create_block', { parentUid: 'oldplans1', markdown: '- Interview loop' }));
  const listed = jsonOf<Listed>(await agent.call('list_changes'));
  expect(listed.changes.map((c) => c.summary)).toEqual([
    "Added 'Interview loop'",
    "Moved block 'Hiring plan' from 'Hiring'",
  ]);
  const terminal = await world.cli('changes', '--graph', 'work');
  expect(terminal.status).toBe(0);
  expect(terminal.stdout).toContain("Moved block 'Hiring plan' from 'Hiring'");
  expect(terminal.stdout).not.toMatch(UIDS);
});

it('an undo says its counts in plain plurals, and names a page as the page, never as ""', async () => {
  jsonOf(await agent.call('create_page', { title: 'Made', markdown: '- one\n- two' }));
  // A person adds a block to the agent's new page: the undo leaves the page alone and says why.
  world.emulator
    .graph('work')
    .run('data.block.create', [
      { location: { 'page-title': 'Made', order: 'last' }, block: { string: 'mine' } },
    ]);
  const dry = jsonOf<Report>(await agent.call('undo_changes', { all: true, dryRun: true }));
  const text = JSON.stringify(dry);
  expect(text).not.toMatch(/\(s\)|under ''/);
  expect(text).toContain("1 block was added under page 'Made'");
  expect(text).not.toMatch(UIDS);
  // The person's dry run in a terminal says it the same way.
  const { changes } = JSON.parse((await world.cli('changes', '--json')).stdout) as {
    changes: Array<{ chat: { id: string } }>;
  };
  const undo = await world.cli('undo', '--chat', changes[0]!.chat.id, '--dry-run');
  expect(undo.stdout).toContain("1 block was added under page 'Made'");
  expect(`${undo.stdout}${undo.stderr}`).not.toMatch(/\(s\)|under ''/);
  expect(undo.stdout).not.toMatch(UIDS);
});
