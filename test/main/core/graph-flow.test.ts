// A change to the graphs reaches the renderer once: the handler's own event, not again when the
// store-file watcher sees the core's own write, and nothing for a change that changed nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphView } from '../../../src-shared/ipc-contract.ts';
import { createFileKeySecretBox } from '../../../src-main/core/store/file-key-secret-box.ts';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { openTrayStore } from '../../../src-main/core/store/tray-store.ts';
import { nextEvent, startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let core: TrayCore;
let events: ReturnType<typeof startCore>['events'];

beforeEach(async () => {
  dirs = await tempDirs();
  ({ core, events } = startCore(dirs));
});
afterEach(async () => {
  await core.close();
  await dirs.cleanup();
});

const graphsEvents = () =>
  events.filter((e) => e.event === 'graphs:changed').map((e) => e.payload as GraphView[]);

/** Another process (an `--mcp` launcher) changes the store; resolves once the core has told of it. */
async function writeFromElsewhere(): Promise<void> {
  const told = nextEvent(core, 'graphs:changed', (list) => list.some((g) => g.name === 'from-elsewhere'));
  const other = openTrayStore({ storeDir: dirs.storeDir, secretBox: createFileKeySecretBox(dirs.storeDir) });
  await other.update((data) => {
    data.graphs.push({ name: 'from-elsewhere', type: 'hosted', accessLevel: 'read-only' });
  });
  await told;
}

describe('the graph flow is one path', () => {
  it('adding a graph sends the new list once, not again when the watcher sees the core’s own write', async () => {
    await core.handlers['graphs:add']({ name: 'work', nickname: 'Work' });
    expect(graphsEvents()).toHaveLength(1);
    // Give the watcher time to report the core's own write, then a write by another process,
    // whose event (from the same watcher, so after it) closes the window.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writeFromElsewhere();
    expect(graphsEvents().map((list) => list.map((g) => g.name))).toEqual([
      ['work'],
      ['work', 'from-elsewhere'],
    ]);
  });

  it('a change that changes nothing sends nothing', async () => {
    const work = await core.handlers['graphs:add']({ name: 'work', nickname: 'Work' });
    await core.handlers['graphs:update']({ id: work.id, nickname: 'Work' });
    await core.handlers['graphs:update']({ id: work.id, nickname: 'Office' });
    expect(graphsEvents().map((list) => list[0]?.nickname)).toEqual(['Work', 'Office']);
  });
});
