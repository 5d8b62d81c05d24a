// A native notification when a change starts waiting for the person, through the core's own event
// bus with `electron` faked (test/harness/fake-electron.ts): the newest question and how many more
// wait, one notification at a time (an agent asking for 40 changes is not 40 notifications);
// clicking it shows the waiting changes; once nothing waits it closes.
import { beforeEach, expect, it, vi } from 'vitest';
import { createCoreEvents } from '../../../src-main/core/core-events.ts';
import { noticeWaitingChanges } from '../../../src-main/shell/approval-notices.ts';
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { fake, resetFakeElectron } from '../../harness/fake-electron.ts';

vi.mock('electron', async () => (await import('../../harness/fake-electron.ts')).electronModule());

beforeEach(() => resetFakeElectron());

const proposal = (id: string, title: string): ProposalView => ({
  id,
  question: `Delete the page '${title}'?`,
  graph: 'Work',
  tool: 'delete_page',
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  taken: { blocks: [], pages: [], replaced: [], moved: [], renames: [], files: [], hidden: 0 },
});
interface Shown {
  options: { title: string; body: string };
  closed: boolean;
  click(): void;
}
const shown = () => (fake.electron.Notification as unknown as { shown: Shown[] }).shown;
const open = () => shown().filter((n) => !n.closed);

it('notifies the newest waiting change, one notification at a time, and closes once nothing waits', () => {
  const events = createCoreEvents();
  const showWaiting = vi.fn();
  noticeWaitingChanges(events, showWaiting);

  events.emit('proposals:changed', [proposal('p-1', 'Drafts')]);
  expect(open().map((n) => n.options)).toEqual([
    { title: 'A change waits for your answer', body: "Delete the page 'Drafts'?" },
  ]);
  // The same list again (an answer elsewhere changed nothing here) is no new notification.
  events.emit('proposals:changed', [proposal('p-1', 'Drafts')]);
  expect(shown()).toHaveLength(1);

  const flood = Array.from({ length: 40 }, (_, i) => proposal(`p-${i + 2}`, `Page ${i}`));
  events.emit('proposals:changed', [proposal('p-1', 'Drafts'), ...flood]);
  expect(open().map((n) => n.options)).toEqual([
    { title: '41 changes wait for your answer', body: "Delete the page 'Page 39'? (and 40 more)" },
  ]);

  open()[0]!.click();
  expect(showWaiting).toHaveBeenCalledTimes(1);
  // One answered: fewer wait, nothing new to announce.
  events.emit('proposals:changed', flood);
  expect(open()).toHaveLength(1);
  events.emit('proposals:changed', []);
  expect(open()).toEqual([]);
});

it('an agent’s title reaches the notification plain: no direction control, markup escaped on Linux, bounded', () => {
  const events = createCoreEvents();
  noticeWaitingChanges(events, () => {});
  events.emit('proposals:changed', [proposal('p-1', `<b>Approve</b>\u202E skcolb 0001 ${'t'.repeat(5000)}`)]);
  const [{ options }] = open() as [Shown];
  expect(options.body).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  if (process.platform === 'linux') {
    expect(options.body).not.toMatch(/<b>/);
    expect(options.body).toMatch(/^Delete the page '&lt;b&gt;Approve/);
  }
  expect([...options.body].length).toBeLessThanOrEqual(240 + 20);
});
