/**
 * A hidden right-to-left override (U+202E) in a page title never reverses what a person reads in
 * the tray's Activity rows (issue 40, item 10): an agent started with the demo's entry renames a
 * page to a title ending in one, then renames it again; the second change's line, "Renamed page
 * 'Alan‮nala' → 'Plain title'", is drawn in reading order in Debian's Chromium (graph texts are
 * isolated in <bdi>).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drawnLefts, increasing } from './drawn-order.ts';
import { startDemoTray, type DemoTray } from './tray-world.ts';

const RLO = '\u202e';
let tray: DemoTray;

beforeAll(async () => {
  tray = await startDemoTray({ viewport: { width: 900, height: 700 } });
  tray.page.setDefaultTimeout(15_000);
});

afterAll(() => tray?.close());

it('draws a change line whose old title hides a right-to-left override in reading order', async () => {
  const agentCall = await tray.startAgent();
  await agentCall('select_graph', {});
  await agentCall('update_page', { uid: 'alan-pg', title: `Alan${RLO}nala` });
  await agentCall('update_page', { uid: 'alan-pg', title: 'Plain title' });
  await tray.page.getByRole('tab', { name: 'Activity' }).click();
  const line = tray.page.locator('li.activity-change', { hasText: 'Plain title' }).locator('.row .grow');
  await line.waitFor();

  // Left edges as drawn of 'Renamed', the arrow and the new title: in reading order they grow.
  const lefts = await line.evaluate(drawnLefts, ['Renamed', '→', 'Plain title']);
  expect(increasing(lefts), JSON.stringify(lefts)).toBe(true);
});
