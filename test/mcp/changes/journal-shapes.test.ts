/**
 * One wrong-shaped journal line does not stop undo for everyone (issue 40, item 11): well-formed
 * JSON records of the wrong shape (a `done` without `items`, a `begin` without `at`, an op whose
 * op is not one) sit in another process's segment; list_changes, undo_changes and its dry run,
 * `roam-mcp changes --json` and `roam-mcp undo` still work, through the built bin against the
 * emulator, and the CLI says how many lines it skipped.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeEach(async () => {
  world = await undoWorld([
    { title: 'Notes', uid: 'notespg01', children: [{ string: 'alpha', uid: 'alpha0001' }] },
  ]);
  agent = await world.agent();
});
afterEach(() => world.close());

const BAD = [
  { v: 1, k: 'begin', id: 'noat0001', graph: 'work', chat: { id: 'c', startedAt: '' }, tool: 'x', pid: 1 },
  { v: 1, k: 'done', id: 'noitems1', at: 1 },
  { v: 1, k: 'op', id: 'badop001', n: 0, at: 1, op: { kind: 'delete-blocks' } },
  { v: 1, k: 'end', id: 'noat0001', ok: 'yes' },
];

async function plantBadLines(): Promise<void> {
  const dir = path.join(world.home, '.local/share/roam-companion/journal');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // A segment of another process, named as segments are (today, so it is not pruned).
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  await writeFile(
    path.join(dir, `${day}-000000-1-0badba.jsonl`),
    BAD.map((r) => JSON.stringify(r)).join('\n') + '\n',
    { mode: 0o600 },
  );
}

it('lists and undoes as usual past records of the wrong shape, and says how many lines it skipped', async () => {
  jsonOf(await agent.call('update_block', { uid: 'alpha0001', string: 'alpha, rewritten' }));
  await plantBadLines();

  const listed = jsonOf<{ changes: Array<{ id: string }> }>(await agent.call('list_changes', {}));
  expect(listed.changes).toHaveLength(1);
  const cli = await world.cli('changes', '--json');
  expect(cli.status).toBe(0);
  expect((JSON.parse(cli.stdout) as { changes: unknown[] }).changes).toHaveLength(1);
  expect(cli.stderr).toMatch(/4 journal line\(s\) .* skipped/);
  expect(jsonOf(await agent.call('undo_changes', { all: true, dryRun: true }))).toMatchObject({ undone: 1 });
  expect(jsonOf(await agent.call('undo_changes', { all: true }))).toMatchObject({ undone: 1 });
  const undo = await world.cli('undo', '--chat', 'nobody', '--dry-run');
  expect(undo.status).not.toBe(2);
});
