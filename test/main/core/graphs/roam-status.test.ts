import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { nextEvent, startCore, tempDirs } from '../../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
const opened: string[] = [];

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'g' }] });
  ({ core } = startCore(dirs, { statusPollMs: 100, openExternal: async (url) => void opened.push(url) }));
});
afterAll(async () => {
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('Roam Desktop status', () => {
  it('reports Roam quitting and coming back on another port as status:changed events', async () => {
    const initial = await core.handlers['status:get'](undefined);
    expect(initial.roam).toMatchObject({ running: true, port: emulator.port });
    expect(initial.storage).toEqual({
      backend: 'preview-file-key',
      warning: expect.stringMatching(/Not for real use/),
    });

    const down = nextEvent(core, 'status:changed', (s) => !s.roam.running);
    await emulator.stop();
    expect((await down).roam.port).toBe(initial.roam.port);

    const up = nextEvent(core, 'status:changed', (s) => s.roam.running);
    await emulator.start();
    expect((await up).roam.port).toBe(emulator.port);
  });

  it('opens Roam with its deep link', async () => {
    await core.handlers['roam:open'](undefined);
    expect(opened).toEqual(['roam://']);
  });
});
