// A native notification per change waiting for the person, through the core's own event bus with
// `electron` faked (test/harness/fake-electron.ts): its question only; clicking it shows the
// waiting changes; one that no longer waits (answered in the chat or the tray, expired) closes.
import { beforeEach, expect, it, vi } from 'vitest';
import { createCoreEvents } from '../../../src-main/core/core-events.ts';
import { noticeWaitingChanges } from '../../../src-main/shell/approval-notices.ts';
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { fake, resetFakeElectron } from '../../harness/fake-electron.ts';

vi.mock('electron', async () => (await import('../../harness/fake-electron.ts')).electronModule());

beforeEach(() => resetFakeElectron());

const proposal = (id: string, title: string): ProposalView => ({
  id,
  question: `Delete the page '${title}' and its 12 blocks in graph 'Work'?`,
  graph: 'Work',
  tool: 'delete_page',
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  taken: { blocks: [], pages: [], replaced: [], moved: [], renames: [], hidden: 0 },
});

it('notifies once per waiting change, opens the waiting changes on click, and closes what no longer waits', () => {
  const events = createCoreEvents();
  const showWaiting = vi.fn();
  noticeWaitingChanges(events, showWaiting);
  const shown = () =>
    (
      fake.electron.Notification as unknown as {
        shown: Array<{ options: { body: string }; closed: boolean; click(): void }>;
      }
    ).shown;

  events.emit('proposals:changed', [proposal('p-1', 'Drafts')]);
  events.emit('proposals:changed', [proposal('p-1', 'Drafts'), proposal('p-2', 'Archive')]);
  expect(shown().map((n) => n.options.body)).toEqual([
    "Delete the page 'Drafts' and its 12 blocks in graph 'Work'?",
    "Delete the page 'Archive' and its 12 blocks in graph 'Work'?",
  ]);

  events.emit('proposals:changed', [proposal('p-2', 'Archive')]);
  expect(shown().map((n) => n.closed)).toEqual([true, false]);

  shown()[1]!.click();
  expect(showWaiting).toHaveBeenCalledTimes(1);
  events.emit('proposals:changed', []);
  expect(shown().map((n) => n.closed)).toEqual([true, true]);
});
