/**
 * The Activity view end to end: a real SDK client, launched with the demo's agent entry, changes
 * the demo graph; the feed in Debian's Chromium shows each change live; a person then edits one of
 * the agent's blocks; undoing the chat from the UI shows its dry run first, restores the graph,
 * keeps the person's edit and shows it as a conflict on the entry. axe-core on every state, the
 * undo preview from the keyboard, screenshots (light and dark, 420×600) into docs/screenshots
 * with UPDATE_SCREENSHOTS=1.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';
import { violationsEverywhere } from './axe.ts';
import { screenshot } from './screenshots.ts';
import { poll as pollPage } from './poll.ts';
import { startDemoTray, type DemoTray } from './tray-world.ts';

let tray: DemoTray;
let page: Page;
let agentCall: (name: string, args: Record<string, unknown>) => Promise<void>;

beforeAll(async () => {
  tray = await startDemoTray();
  page = tray.page;
});

afterAll(() => tray?.close());

const poll = <T>(read: () => Promise<T>) => pollPage(read, 15_000);
const contains = (locator: Locator, text: string) => poll(() => locator.innerText()).toContain(text);
const status = () => page.getByRole('contentinfo', { name: 'Status' });
const chatCard = () => page.getByRole('listitem', { name: /^Claude Desktop, started/ });
const work = () => tray.demo.emulator.graph('demo-work');
const blockText = (uid: string) =>
  work().run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);
const pageExists = (title: string) =>
  work().run('data.q', [`[:find ?p . :where [?p :node/title "${title}"]]`]) !== null;

/** Serious or critical axe violations, at tray size and in a larger window, light and dark. */
const violations = () => violationsEverywhere(page);

// One walk: each test starts where the one before left the page.
describe.sequential('Activity: agent changes live, undone from the tray', () => {
  it('explains what will appear before any agent has changed anything', async () => {
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByText('No agent has changed a graph yet.').waitFor();
    await contains(status(), '0 agent changes today');
    expect(await violations()).toEqual([]);
    await screenshot(page, 'activity-empty');
  });

  it('shows each change of an agent started with the demo entry, live, newest first', async () => {
    agentCall = await tray.startAgent();
    await agentCall('select_graph', {}); // reads the graph's guidelines: writes need that first
    const before = blockText('hermes-ls') as string;
    const after = 'Lesson: measure first, then optimise';
    await agentCall('update_block', { uid: 'hermes-ls', string: after });
    await contains(chatCard(), "Edited a block in 'Project Hermes'");
    // Seen as a diff: the page named, the text before and after, the deleted and inserted words marked.
    const editDiff = chatCard().getByRole('group', {
      name: /^What changed: Edited a block in 'Project Hermes'/,
    });
    await contains(editDiff, "Edited in 'Project Hermes'");
    const marked = async (tag: 'del' | 'ins') =>
      (await editDiff.locator(tag).allTextContents()).map((t) => t.replace(/\[(deleted|inserted): |\]/g, ''));
    const deleted = await marked('del');
    const inserted = await marked('ins');
    expect(inserted.join('').trim()).not.toBe('');
    for (const word of inserted) expect(after).toContain(word.trim());
    for (const word of deleted) expect(before).toContain(word.trim());
    expect(deleted.join('')).not.toContain('Lesson:'); // a kept word is not marked
    expect(await editDiff.innerText()).not.toMatch(/hermes-ls/);
    await agentCall('update_block', { uid: 'apollo-g1', string: 'Ship the beta next week' });
    await agentCall('delete_page', { uid: 'alan-pg' });
    await agentCall('move_block', { uid: 'apollo-g2', parentUid: 'hermes-pg', order: 0 });
    // A move says from where to where by page (and parent block), never by uid.
    const moved = chatCard().getByRole('group', { name: /^What changed: Moved block/ });
    await poll(() => moved.innerText()).toMatch(/From\s*under 'Goals' in 'Project Apollo'/i);
    await poll(() => moved.innerText()).toMatch(/To\s*'Project Hermes'/i);
    expect(await moved.innerText()).not.toMatch(/apollo-gl|hermes-pg/);
    await contains(chatCard(), "Deleted page 'Alan Turing'");
    const lines = chatCard().getByRole('list', { name: 'Changes by Claude Desktop' }).locator(':scope > li');
    await poll(() => lines.allInnerTexts()).toHaveLength(4);
    expect((await lines.allInnerTexts())[0]).not.toMatch(/apollo-gl|hermes-pg/); // the move's line too
    expect((await lines.allInnerTexts())[1]).toContain("Deleted page 'Alan Turing'");
    // A delete shows the outline it took away, under the page's name.
    const removed = chatCard()
      .getByRole('group', { name: /^What changed: Deleted page 'Alan Turing'/ })
      .getByRole('list', { name: 'Removed blocks' });
    expect((await removed.getByRole('listitem').allInnerTexts()).length).toBeGreaterThan(0);
    await contains(chatCard(), 'Work · 4 changes');
    await contains(status(), '4 agent changes today');
    expect(await violations()).toEqual([]);
    await screenshot(page, 'activity-feed');
  });

  it('shows the dry run first, from the keyboard: Escape closes it and the focus returns', async () => {
    // A person edits one of the agent's blocks: that block is theirs now.
    work().run('data.block.update', [{ block: { uid: 'hermes-ls', string: 'Lesson: my own words' } }]);
    const undoChat = chatCard().getByRole('button', { name: 'Undo this chat…' });
    await undoChat.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Undo every change of this chat?' });
    await contains(dialog, 'Left alone (changed since)');
    await contains(dialog, 'Nothing has changed yet.');
    // One summary line and the button in view at the tray's size; the changes grouped by page below.
    const undoNow = dialog.getByRole('button', { name: 'Undo now' });
    await undoNow.scrollIntoViewIfNeeded();
    const box = (await dialog.boundingBox())!;
    const button = (await undoNow.boundingBox())!;
    expect(button.y - box.y).toBeLessThan(160);
    const covers = dialog.getByRole('region', { name: 'What the undo covers' });
    expect(await covers.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(262);
    await contains(covers.getByRole('region', { name: "In 'Project Hermes'" }), '1 change');
    await contains(covers.getByRole('region', { name: "In 'Alan Turing'" }), "Deleted page 'Alan Turing'");
    expect(await covers.innerText()).not.toMatch(/hermes-ls|apollo-g1|alan-pg/);
    await poll(() =>
      dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement),
    ).toBe(true);
    expect(await violations()).toEqual([]);
    await screenshot(page, 'activity-undo-preview');
    expect(pageExists('Alan Turing')).toBe(false); // the dry run wrote nothing
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await poll(() => undoChat.evaluate((b) => b === document.activeElement)).toBe(true);
  });

  it('undoes the chat: the graph is restored, the person’s edit kept and shown as a conflict', async () => {
    await chatCard().getByRole('button', { name: 'Undo this chat…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo every change of this chat?' });
    await dialog.getByRole('button', { name: 'Undo now' }).click();
    const outcome = chatCard().getByRole('status', { name: 'Undo of every change of this chat' });
    await contains(outcome, 'Undone: 3 changes. 1 part changed since was left alone.');
    expect(pageExists('Alan Turing')).toBe(true);
    expect(blockText('apollo-g1')).toBe('Ship the [[Roam Companion]] beta by [[December 1st, 2026]]');
    expect(blockText('hermes-ls')).toBe('Lesson: my own words');

    const edited = chatCard().getByRole('listitem', { name: /^Edited a block in 'Project Hermes'/ });
    await contains(edited, 'Conflict');
    await contains(edited, 'Left alone');
    // The conflict seen: the agent's text beside what the block says now, the person's words marked.
    const conflict = edited.getByRole('group', { name: /^What changed:/ });
    await contains(conflict, 'changed since by someone else');
    await poll(() => conflict.innerText()).toMatch(/Agent\s*Lesson: measure[\s\S]*first, then optimise/i);
    await poll(() => conflict.innerText()).toMatch(/Now\s*Lesson:[\s\S]*my own words/i);
    expect((await conflict.locator('.diff-now ins').allTextContents()).join('')).toContain('my own words');
    await contains(chatCard().getByRole('listitem', { name: /^Deleted page 'Alan Turing'/ }), 'Undone');
    // When its latest undo was: a person's undos are no chat that "started".
    const yours = page.getByRole('listitem', { name: /^Your undos in Roam Companion, latest / });
    await contains(yours, 'Work');
    expect(await violations()).toEqual([]);
    await screenshot(page, 'activity-undo-outcome');
    // From the keyboard: Dismiss has the focus, and gives it back to the chat's undo.
    const dismiss = outcome.getByRole('button', { name: 'Dismiss' });
    await poll(() => dismiss.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await outcome.waitFor({ state: 'detached' });
    const undoChat = chatCard().getByRole('button', { name: 'Undo this chat…' });
    await poll(() => undoChat.evaluate((b) => b === document.activeElement)).toBe(true);
    await contains(edited, 'Conflict'); // the conflict stays on the entry
    await edited.scrollIntoViewIfNeeded();
    expect(await violations()).toEqual([]);
    await screenshot(page, 'activity-conflict');

    // The person's entry says what it took back, and offers Redo in a dialog that says Redo.
    await contains(yours, "Took back: Deleted page 'Alan Turing'");
    // The edit its conflict left alone is not listed as taken back.
    await contains(yours, "Left alone (changed since): Edited a block in 'Project Hermes'");
    expect(await yours.innerText()).not.toMatch(/Took back: Edited a block in 'Project Hermes'/);
    await yours.getByRole('button', { name: /^Redo: / }).click();
    const redo = yours.getByRole('dialog', { name: 'Redo: put back what this undo took back?' });
    await redo.getByRole('button', { name: 'Redo now' }).waitFor();
    // It lists what it puts back, not the undo's own "Undid …" line.
    await poll(() => redo.innerText()).toMatch(/Will be put back: .*Deleted page 'Alan Turing'/);
    expect(await redo.innerText()).not.toMatch(/Undid \d/);
    // Places by their names, as the feed says them: no uid a person cannot read.
    expect(await redo.innerText()).not.toMatch(/apollo-gl|hermes-pg/);
    expect(await violations()).toEqual([]);
    expect(await redo.getByRole('button', { name: /Undo/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await redo.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(LOCAL_TOKEN_PREFIX);
  });

  it('redoes from the keyboard: the dialog draws what the redo does, counts what it names', async () => {
    const yours = page.getByRole('listitem', { name: /^Your undos in Roam Companion, latest / });
    // The person's chat counts undos, as its entry does, not "1 change" beside "Undid 3 of 4 changes".
    await contains(yours, 'Work · 1 undo');
    await contains(yours, 'Undid 3 of 4 changes');
    const opener = yours.getByRole('button', { name: /^Redo: / });
    await opener.focus();
    await page.keyboard.press('Enter');
    const redo = yours.getByRole('dialog', { name: 'Redo: put back what this undo took back?' });
    await contains(redo, 'Nothing has changed yet.');
    const covers = redo.getByRole('region', { name: 'What the undo covers' });
    // Three changes named, three counted: in the summary line and the group's heading.
    const named = await covers.locator('.undo-line').allInnerTexts();
    expect(named).toHaveLength(3);
    for (const line of named) expect(line).toMatch(/^Will be put back: /);
    expect(named.join('\n')).toContain("Deleted page 'Alan Turing'");
    await contains(redo, '3 changes will be put back.');
    await contains(covers.getByRole('region', { name: 'In Work' }), '3 changes');
    expect(await redo.innerText()).not.toMatch(/\b1 change\b/);
    // The redo's direction: the page it deletes again is removed, not added; the edit it makes
    // again goes from the text the undo put back to the agent's.
    const diff = covers.getByRole('group', { name: /^What changed: / });
    expect(await diff.getByRole('list', { name: 'Removed blocks' }).count()).toBe(1);
    expect(await diff.getByRole('list', { name: 'Added blocks' }).count()).toBe(0);
    await poll(() => diff.innerText()).toMatch(/Removed 1 block with page 'Alan Turing'/);
    const apollo = diff.locator('.diff-detail', { hasText: "Edited in 'Project Apollo'" });
    expect((await apollo.locator('ins').allTextContents()).join('')).toContain('next week');
    expect((await apollo.locator('del').allTextContents()).join('')).toContain('Roam Companion');
    const move = diff.locator('.diff-detail', { hasText: /^Moved/ });
    await poll(() => move.innerText()).toMatch(
      /From\s*under 'Goals' in 'Project Apollo'[\s\S]*To\s*'Project Hermes'/i,
    );
    expect(await violations()).toEqual([]);
    await screenshot(page, 'activity-redo-preview');
    expect(pageExists('Alan Turing')).toBe(true); // the dry run wrote nothing

    await page.keyboard.press('Tab'); // from Cancel to Redo now
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Redo now');
    await page.keyboard.press('Enter');
    const outcome = yours.getByRole('status', { name: 'Redo of this undo' });
    await contains(outcome, 'Redone: 3 changes.');
    expect(pageExists('Alan Turing')).toBe(false);
    expect(blockText('apollo-g1')).toBe('Ship the beta next week');
    // The redo is listed as what it did, in the agents' changes it put back.
    const redone = yours.getByRole('listitem', { name: 'Redid 3 changes' });
    await contains(redone, "Put back: Deleted page 'Alan Turing'");
    expect(await redone.innerText()).not.toMatch(/Undid 1 change|Took back: Undid/);
    await contains(yours, 'Work · 1 undo, 1 redo');
    // Undoing the redo takes the changes back again: said so, not "Redo".
    expect(await redone.getByRole('button', { name: 'Undo: Redid 3 changes' }).count()).toBe(1);
    expect(await violations()).toEqual([]);
  });
});
