/**
 * `roam-mcp changes` and `roam-mcp undo` after the agent's chat has ended: the person sees the
 * chat's changes (grouped, one line each), a dry run changes nothing, the undo restores the
 * graph and is itself listed; a person's later edit stays and makes the exit code 1.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/index.ts';
import { jsonOf, toolsConfigPath } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

const content: PageSpec[] = [
  {
    title: 'Notes',
    uid: 'notespg01',
    children: [
      { string: 'first', uid: 'first0001' },
      { string: 'second', uid: 'secnd0001' },
    ],
  },
];

let world: UndoWorld;
beforeEach(async () => {
  world = await undoWorld(content);
});
afterEach(() => world.close());

interface Listed {
  changes: Array<{
    id: string;
    chat: { id: string; client?: { name?: string } };
    summary: string;
    at: string;
    undone: boolean;
    tool: string;
  }>;
}

it('lists and undoes a finished chat from the terminal', async () => {
  const graph = world.emulator.graph('work');
  const before = graphSnapshot(graph);
  const agent = await world.agent();
  jsonOf(await agent.call('update_block', { uid: 'first0001', string: 'first, edited by the agent' }));
  jsonOf(await agent.call('delete_block', { uid: 'secnd0001' }));
  await agent.close();

  const listed = await world.cli('changes', '--json');
  expect(listed.status).toBe(0);
  const { changes } = JSON.parse(listed.stdout) as Listed;
  expect(changes.map((c) => c.tool)).toEqual(['delete_block', 'update_block']);
  const chat = changes[0]?.chat.id as string;
  expect(changes[0]?.chat.client?.name).toBe('vitest-client');

  // `today` is one of the forms the usage names: every change made since local midnight.
  const today = await world.cli('changes', '--since', 'today', '--json');
  expect(today.status).toBe(0);
  expect((JSON.parse(today.stdout) as Listed).changes.map((c) => c.id)).toEqual(
    changes.filter((c) => Date.parse(c.at) >= new Date().setHours(0, 0, 0, 0)).map((c) => c.id),
  );

  const human = await world.cli('changes', '--graph', 'work');
  expect(human.stdout).toContain(`Chat ${chat} — vitest-client`);
  expect(human.stdout).toContain("Edited a block in 'Notes': 'first' → 'first, edited by the agent'");

  const dry = await world.cli('undo', '--chat', chat, '--dry-run');
  expect(dry.status).toBe(0);
  expect(dry.stdout).toMatch(/^Dry run: nothing was changed\./);
  expect(dry.stdout).toContain("restored 'second'");
  expect(graphSnapshot(graph)).not.toEqual(before);

  const undo = await world.cli('undo', '--chat', chat, '--json');
  expect(undo.status).toBe(0);
  expect(JSON.parse(undo.stdout)).toMatchObject({ dryRun: false, undone: 2, conflicts: 0 });
  expect(graphSnapshot(graph)).toEqual(before);

  const after = JSON.parse((await world.cli('changes', '--json')).stdout) as Listed;
  expect(after.changes[0]?.tool).toBe('roam-mcp undo');
  expect(after.changes.filter((c) => c.chat.id === chat).every((c) => c.undone)).toBe(true);
});

it('leaves a person’s later edit alone and says so (exit 1)', async () => {
  const agent = await world.agent();
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'notespg01', markdown: 'agent note' }),
  );
  await agent.close();
  const uid = made.uids[0] as string;
  world.emulator
    .graph('work')
    .asPerson('Bea')
    .run('data.block.update', [{ block: { uid, string: 'agent note, improved by Bea' } }]);
  const { changes } = JSON.parse((await world.cli('changes', '--json')).stdout) as Listed;
  const undo = await world.cli('undo', changes[0]?.id as string);
  expect(undo.status).toBe(1);
  expect(undo.stdout).toContain('left alone (conflict)');
  expect(undo.stdout).toContain('improved by Bea');
});

it('says what is wrong with a command line (exit 2)', async () => {
  const bad = await world.cli('undo');
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/Say what to undo/);
  const since = await world.cli('changes', '--since', 'yesterday-ish');
  expect(since.status).toBe(2);
  expect(since.stderr).toMatch(/is not a time/);
});

it('shows where a conflicting edit differs, once', async () => {
  const agent = await world.agent();
  const written = 'Met on Monday with the whole team about [[Project Alpha]] and its budget';
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'notespg01', markdown: written }),
  );
  await agent.close();
  world.emulator
    .graph('work')
    .asPerson('Bea')
    .run('data.block.update', [{ block: { uid: made.uids[0], string: written.replace('Alpha', 'Beta') } }]);

  const dry = await world.cli('undo', '--dry-run', '--chat', await chatOf());

  expect(dry.stdout).toContain('Project Alpha');
  expect(dry.stdout).toContain('Project Beta');
  expect(dry.stdout).not.toMatch(/changed since:/);
});

async function chatOf(): Promise<string> {
  const { changes } = JSON.parse((await world.cli('changes', '--json')).stdout) as Listed;
  return changes[0]?.chat.id as string;
}

it('finds a graph by a nickname only the chat knew, and says when a graph is unknown', async () => {
  const file = toolsConfigPath(world.home);
  const config = await readFile(file, 'utf8');
  const named = JSON.parse(config) as { graphs: Array<Record<string, unknown>> };
  named.graphs.forEach((g) => (g.nickname = 'Office'));
  await writeFile(file, JSON.stringify(named), { mode: 0o600 });
  const agent = await world.agent();
  jsonOf(await agent.call('update_block', { uid: 'first0001', string: 'first, edited' }));
  await agent.close();
  await writeFile(file, config, { mode: 0o600 });

  const listed = await world.cli('changes', '--graph', 'office', '--json');
  expect(listed.status).toBe(0);
  expect((JSON.parse(listed.stdout) as Listed).changes.map((c) => c.tool)).toEqual(['update_block']);

  const unknown = await world.cli('changes', '--graph', 'nowhere');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain("No graph 'nowhere'");
  expect(unknown.stdout).not.toContain('No changes');

  // A person is pointed at what a person has, never at an agent's tool.
  const missing = await world.cli('undo', 'nosuchid');
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain(
    "No change 'nosuchid' in the journal (it keeps 30 days). List them with 'roam-mcp changes' or in Roam Companion's Activity.",
  );
  expect(missing.stderr).not.toContain('list_changes');
});

it('with nothing recorded, says which journal it read (a demo’s or the tray’s is in another data folder)', async () => {
  const empty = await world.cli('changes');
  expect(empty.status).toBe(0);
  expect(empty.stdout).toBe(
    `No changes recorded in ${path.join(world.home, '.local', 'share', 'roam-companion', 'journal')} (the journal keeps 30 days).\n`,
  );
});
