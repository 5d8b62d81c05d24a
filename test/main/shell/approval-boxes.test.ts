// The `--mcp` app asks about each waiting change in a native message box (docs/tray.md,
// "Approvals"), with `electron` faked (test/harness/fake-electron.ts) and the launcher's real list
// of waiting proposals (pending-proposals.ts) between the box and a stand-in server: the box says
// what goes in a person's words, Approve answers it over the server's pipe, the box closes by its
// AbortSignal when the change is answered elsewhere, Later leaves it waiting, and a flood of
// proposals opens one box at a time.
import { beforeEach, expect, it, vi } from 'vitest';
import { createCoreEvents } from '../../../src-main/core/core-events.ts';
import { pendingProposals } from '../../../src-main/core/approvals/pending-proposals.ts';
import { askInBoxes } from '../../../src-main/shell/approval-boxes.ts';
import type { ParentMessage } from '../../../src-shared/child-ipc.ts';
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { fake, resetFakeElectron } from '../../harness/fake-electron.ts';

vi.mock('electron', async () => (await import('../../harness/fake-electron.ts')).electronModule());

const APPROVE = 0;
const KEEP = 1;
const LATER = 2;

const proposal = (id: string, title: string, blocks = 3): ProposalView => ({
  id,
  question: `Delete the page '${title}' and its ${blocks} blocks in graph 'Work'?`,
  graph: 'Work',
  tool: 'delete_page',
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  taken: {
    blocks: Array.from({ length: blocks }, (_, i) => ({ text: `${title} line ${i}`, page: title })),
    pages: [{ title, blocks, hidden: 1, linkedFrom: { blocks: 2, pages: ['Index'] } }],
    replaced: [],
    moved: [],
    renames: [],
    files: [],
    hidden: 1,
  },
});

/** The launcher's list (as runMcpLauncher keeps it) with a stand-in server behind its pipe. */
function launcherList() {
  const sent: ParentMessage[] = [];
  const events = createCoreEvents();
  const pending = pendingProposals((waiting) => events.emit('proposals:changed', waiting));
  pending.serverIs((message) => sent.push(message));
  return { sent, pending, source: { list: pending.list, answer: pending.answer, on: events.on } };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));
const boxes = () => fake.messageBoxes;
const openBoxes = () => fake.messageBoxes.filter((b) => !b.closed);
const openWindows = () => fake.windows.filter((w) => !w.isDestroyed());
type Shown = { options: { title: string; body: string } };
const notices = () => (fake.electron.Notification as unknown as { shown: Shown[] }).shown;

let log: string[];
beforeEach(() => {
  resetFakeElectron();
  log = [];
});

it('asks about a waiting change in a box on a window of its own, in a person’s words; Approve answers it over the pipe', async () => {
  const { sent, pending, source } = launcherList();
  askInBoxes(source, (line) => log.push(line));
  expect(boxes()).toEqual([]);

  pending.heard({ type: 'proposal', proposal: proposal('p-1', 'Drafts') });
  expect(openBoxes()).toHaveLength(1);
  const [box] = openBoxes();
  // Hung on a window (a parentless box would block the process on macOS and ignore its signal).
  expect(box!.parent).toBe(fake.windows[0]);
  expect(box!.options).toMatchObject({
    message: "Delete the page 'Drafts' and its 3 blocks in graph 'Work'?",
    buttons: ['Approve', 'Keep as it is', 'Later'],
    defaultId: LATER,
    cancelId: LATER,
  });
  expect(box!.options.detail).toContain("Graph 'Work' · asked by an AI client (delete_page)");
  expect(box!.options.detail).toContain("Page deleted: 'Drafts' (3 blocks, 1 hidden; linked from 2 blocks)");
  expect(box!.options.detail).toContain('  – Drafts line 0\n');
  expect(box!.options.detail).toContain('1 hidden block (not shown to AI)');
  expect(sent).toEqual([]);

  box!.answer(APPROVE);
  await settle();
  expect(sent).toEqual([{ type: 'proposal-answer', id: 'p-1', answer: 'approve' }]);
  // Not asked twice while the answer is on its way.
  expect(openBoxes()).toEqual([]);
  pending.heard({
    type: 'proposal-answered',
    id: 'p-1',
    done: true,
    outcome: 'Approved by the person and done.',
  });
  await settle();
  expect(openBoxes()).toEqual([]);
  expect(openWindows()).toEqual([]);
  expect(notices()).toEqual([]);
});

it('the box closes by its signal when the change is answered in the chat or expires, and nothing is answered', async () => {
  const { sent, pending, source } = launcherList();
  askInBoxes(source, (line) => log.push(line));
  pending.heard({ type: 'proposal', proposal: proposal('p-1', 'Drafts') });
  const [box] = openBoxes();
  pending.heard({ type: 'proposal-closed', id: 'p-1' });
  expect(box!.closed).toBe(true);
  expect(box!.options.signal!.aborted).toBe(true);
  await settle();
  expect(sent).toEqual([]);
  expect(openWindows()).toEqual([]);
});

it('a flood of proposals opens one box at a time, the rest counted; Keep asks about the next; Later stops asking about all that wait', async () => {
  const { sent, pending, source } = launcherList();
  const asking = askInBoxes(source, (line) => log.push(line));
  for (let i = 1; i <= 30; i++)
    pending.heard({ type: 'proposal', proposal: proposal(`p-${i}`, `Page ${i}`) });
  expect(boxes()).toHaveLength(1);
  expect(fake.windows).toHaveLength(1);
  expect(openBoxes()[0]!.options.message).toContain("'Page 1'");

  openBoxes()[0]!.answer(KEEP);
  await settle();
  expect(sent).toEqual([{ type: 'proposal-answer', id: 'p-1', answer: 'keep' }]);
  expect(openBoxes()).toHaveLength(1);
  expect(openBoxes()[0]!.options.message).toContain("'Page 2'");
  expect(openBoxes()[0]!.options.detail).toContain('28 more changes wait for your answer.');
  expect(fake.windows).toHaveLength(1);

  openBoxes()[0]!.answer(LATER);
  await settle();
  expect(openBoxes()).toEqual([]);
  expect(openWindows()).toEqual([]);
  expect(sent).toHaveLength(1);
  // Still waiting, and still answerable (in the chat, or here when asked again).
  expect(pending.list()).toHaveLength(30);

  // A new one is asked about; the ones put off are not, until the notification asks again.
  pending.heard({ type: 'proposal', proposal: proposal('p-31', 'Page 31') });
  expect(openBoxes().map((b) => b.options.message)).toEqual([expect.stringContaining("'Page 31'")]);
  openBoxes()[0]!.answer(LATER);
  await settle();
  expect(openBoxes()).toEqual([]);
  asking.askAgain();
  expect(openBoxes().map((b) => b.options.message)).toEqual([expect.stringContaining("'Page 2'")]);
  expect(boxes().filter((b) => !b.closed)).toHaveLength(1);
});

it('an answer that came too late is said in a notification; closing the window is Later', async () => {
  const { pending, source } = launcherList();
  askInBoxes(source, (line) => log.push(line));
  pending.heard({ type: 'proposal', proposal: proposal('p-1', 'Drafts') });
  openBoxes()[0]!.answer(APPROVE);
  await settle();
  const outcome = 'Kept: the person chose to keep things as they are. Nothing was changed.';
  pending.heard({ type: 'proposal-answered', id: 'p-1', done: false, outcome });
  await settle();
  expect(notices().map((n) => n.options)).toEqual([{ title: 'Your answer was not applied', body: outcome }]);

  pending.heard({ type: 'proposal', proposal: proposal('p-2', 'Notes') });
  const [box] = openBoxes();
  fake.windows.at(-1)!.destroy();
  expect(box!.closed).toBe(true);
  await settle();
  expect(openBoxes()).toEqual([]);
  expect(pending.list().map((p) => p.id)).toEqual(['p-2']);
});

it('a graph’s text cannot reorder or hide the words around it, and a long text is cut', () => {
  const { pending, source } = launcherList();
  askInBoxes(source, (line) => log.push(line));
  const tricky = proposal('p-1', 'Drafts');
  tricky.taken.blocks = [
    { text: `harmless\u202E txet desrever\u2066 and\nApprove is safe\u200B`, page: 'Drafts' },
    { text: 'y'.repeat(400), page: 'Elsewhere' },
  ];
  pending.heard({ type: 'proposal', proposal: tricky });
  const detail = openBoxes()[0]!.options.detail!;
  expect(detail).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/);
  // (Its page goes whole: said once above, not on each line.)
  expect(detail).toContain('  – harmless txet desrever and Approve is safe\n');
  expect(detail).toContain(`  – ${'y'.repeat(159)}… · 'Elsewhere'`);
});

it('a file delete lists each file by name with the blocks that show it, like pages and blocks: names made plain, the rest counted', () => {
  const { pending, source } = launcherList();
  askInBoxes(source, (line) => log.push(line));
  const files = proposal('p-1', 'Drafts', 0);
  files.tool = 'undo_changes';
  files.question = "Undo 10 changes this chat made in graph 'Work'?";
  files.taken.pages = [];
  files.taken.hidden = 0;
  files.taken.files = [
    { name: 'report.pdf', shownIn: { blocks: 3, pages: ['Trip', 'Inbox', 'Plans', 'Notes', 'Budget'] } },
    { name: `map\u202Egnp.exe\nApprove is safe`, shownIn: { blocks: 1, pages: ['Trip'] } },
    ...Array.from({ length: 8 }, (_, i) => ({ name: `draft-${i}.png`, shownIn: { blocks: 0, pages: [] } })),
  ];
  pending.heard({ type: 'proposal', proposal: files });
  const detail = openBoxes()[0]!.options.detail!;
  expect(detail).toContain(
    [
      '10 files deleted from Roam:',
      "  – 'report.pdf' (shown in 3 blocks on 'Trip', 'Inbox', 'Plans', 2 more pages, left with a broken link)",
      "  – 'map gnp.exe Approve is safe' (shown in 1 block on 'Trip', left with a broken link)",
      "  – 'draft-0.png' (no block shows it)",
    ].join('\n'),
  );
  expect(detail).toContain("  – 'draft-5.png' (no block shows it)\n  and 2 more\n");
  expect(detail).not.toContain('draft-6.png');
  expect(detail).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
});
