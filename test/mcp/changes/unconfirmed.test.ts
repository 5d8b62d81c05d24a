/**
 * A roam-mcp killed (SIGKILL) between journaling a write and sending it: the journal still reads,
 * the change says "unconfirmed", and undo sees that the write never reached Roam. The stop is a
 * test hook (ROAM_MCP_TEST_STOP_BEFORE_WRITE), never a timing race.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { STOP_BEFORE_WRITE_ENV } from '../../../src-mcp/changes/journal/record.ts';
import { errorOf } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
beforeEach(async () => {
  world = await undoWorld([
    { title: 'Notes', uid: 'notespg01', children: [{ string: 'first', uid: 'first0001' }] },
  ]);
});
afterEach(() => world.close());

interface Listed {
  changes: Array<{ id: string; status: string; undoable: boolean; ops: Array<{ outcome: string }> }>;
}

it('reads as unconfirmed after a kill between the journal and Roam, and undo changes nothing', async () => {
  const before = graphSnapshot(world.emulator.graph('work'));
  const agent = await world.agent({ [STOP_BEFORE_WRITE_ENV]: '1' });
  await expect(agent.call('update_block', { uid: 'first0001', string: 'never written' })).rejects.toThrow();
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(before);

  const listed = await world.cli('changes', '--json');
  expect(listed.status).toBe(0);
  const [change] = (JSON.parse(listed.stdout) as Listed).changes;
  expect(change).toMatchObject({ status: 'unconfirmed', undoable: true });
  expect(change?.ops.map((o) => o.outcome)).toEqual(['unconfirmed']);
  expect((await world.cli('changes')).stdout).toContain('[unconfirmed]');

  const undo = await world.cli('undo', change?.id as string);
  expect(undo.status).toBe(0);
  expect(undo.stdout).toContain('the write never reached Roam');
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(before);
});

it('sends nothing to Roam when the journal cannot be written', async () => {
  const before = graphSnapshot(world.emulator.graph('work'));
  // The data folder is a regular file: the journal folder cannot be made, even by root.
  const blocked = path.join(world.home, 'not-a-folder');
  await writeFile(blocked, '');
  const agent = await world.agent({ ROAM_COMPANION_DATA_DIR: blocked });
  const error = errorOf(await agent.call('update_block', { uid: 'first0001', string: 'not journaled' }));
  expect(error.code).toBe('JOURNAL_UNAVAILABLE');
  expect(error.message).toMatch(/Nothing was changed/);
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(before);
});

it('an unconfirmed create says plainly it cannot be taken back (Roam never named what it made)', async () => {
  const agent = await world.agent({ [STOP_BEFORE_WRITE_ENV]: '1' });
  await expect(agent.call('create_block', { parentUid: 'notespg01', markdown: 'lost' })).rejects.toThrow();
  const [change] = (JSON.parse((await world.cli('changes', '--json')).stdout) as Listed).changes;
  expect(change).toMatchObject({ status: 'unconfirmed', undoable: false });
  const undo = await world.cli('undo', change?.id as string, '--dry-run');
  expect(undo.stdout).toContain('cannot be undone');
});
