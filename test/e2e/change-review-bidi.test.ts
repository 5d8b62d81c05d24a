/**
 * A hidden right-to-left override (U+202E) in a page title never reverses what a person reads in
 * the change-review app (issue 40, item 10): the rename row's old → new, a move's From/To place
 * line and the dry run's step lines keep their order, in Debian's Chromium, with the real app the
 * built bin serves, hosted by the package's own host side, against the emulator. Every
 * graph-derived text is isolated (`<bdi>`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf } from '../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { openChangeReview, type AppHost } from './app-host/page.ts';
import { drawnLefts, increasing } from './drawn-order.ts';

const RLO = '\u202e';
let world: StdioWorld;
let host: AppHost;

beforeAll(async () => {
  world = await startOneGraphWorld([
    { title: `Old${RLO}dlo`, uid: 'oldpage01', children: [{ string: 'first', uid: 'first0001' }] },
    { title: 'Source', uid: 'source001', children: [{ string: `moved${RLO}devom`, uid: 'moved0001' }] },
    { title: `Dest${RLO}tsed`, uid: 'destpage1', children: [{ string: 'anchor', uid: 'anchor001' }] },
  ]);
  await world.mcp.call('update_page', { uid: 'oldpage01', title: 'Plain new' }).then(jsonOf);
  await world.mcp.call('move_block', { uid: 'moved0001', parentUid: 'anchor001' }).then(jsonOf);
  host = await openChangeReview({
    callTool: (params) => world.mcp.call(params.name, params.arguments ?? {}),
    width: 900,
  });
});

afterAll(async () => {
  await host?.close();
  await world?.close();
});

/**
 * Left edges, as drawn, of `needles` in the first element matching `selector` that holds the first
 * one (its text holds them in this order).
 */
async function lefts(selector: string, needles: string[]): Promise<number[]> {
  const root = await host.appFrame().evaluateHandle(
    ({ selector, first }) => {
      const found = [...document.querySelectorAll(selector)].find((e) => e.textContent?.includes(first));
      if (!found) throw new Error(`no ${selector}`);
      return found;
    },
    { selector, first: needles[0]! },
  );
  return root.evaluate(drawnLefts, needles);
}

it('keeps the rename row and the move’s place line in reading order', async () => {
  await host.showResult(await world.mcp.call('list_changes', {}));
  await host.appFrame().waitForSelector('.op.rename');
  // Old‮dlo → Plain new: the arrow after the old title, the new title after the arrow.
  expect(increasing(await lefts('.op.rename .row .text', ['Old', '→', 'Plain new']))).toBe(true);
  // To: Dest‮tsed › anchor: the block after the ›, after the page.
  expect(increasing(await lefts('.op.move .row .text', ['Dest', '›', 'anchor']))).toBe(true);
});

it('keeps the dry run’s step lines in reading order', async () => {
  await host.appFrame().getByRole('button', { name: 'Undo whole chat…' }).click();
  await host.appFrame().waitForSelector('.dry-run .step');
  // "moved 'moved‮devom' back to position 0 under 'Source'": the words after the quote read left to right.
  expect(increasing(await lefts('.dry-run .step', ['back to', 'position', 'under']))).toBe(true);
});
