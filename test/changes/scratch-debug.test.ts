import { afterAll, beforeAll, it } from 'vitest';
import { jsonOf, type McpHandle } from '../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';
import { runAgent, World, type AgentCommand } from './property-model.ts';
import { readFileSync } from 'node:fs';

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => { world = await undoWorld([]); agent = await world.agent(); });
afterAll(() => world.close());

it('debug', { timeout: 120000 }, async () => {
  const [pages, commands] = JSON.parse(readFileSync('/tmp/cex.json', 'utf8'));
  const w = new World(world.emulator.graph('work'), 7);
  w.build(pages);
  const start = w.snapshot();
  for (const c of commands as AgentCommand[]) {
    const beforeC = w.snapshot();
    await runAgent(agent, w, c);
    console.log('CMD', JSON.stringify(c));
  }
  const { pullQuery, SHALLOW } = await import('../../src-mcp/changes/roam-pull.ts');
  console.log('DIRECT', JSON.stringify(world.emulator.graph('work').run('data.q', [pullQuery(SHALLOW), ['b7x14', 'b7x23']])).slice(0, 3000));
  const listed = jsonOf<{ changes: Array<{ id: string; summary: string }> }>(await agent.call('list_changes', { limit: 100 }));
  console.log(JSON.stringify(listed.changes, null, 1));
  const report = jsonOf(await agent.call('undo_changes', { all: true }));
  console.log(JSON.stringify(report, null, 1));
  console.log((await world.cli('changes', '--json')).stdout.slice(0, 20000));
  void start;
});
