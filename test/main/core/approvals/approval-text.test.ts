/**
 * What a notification and a message box say about a waiting change (src-main/core/approvals/approval-text.ts),
 * tried with what a hostile agent would put in titles and texts: a 5,000-character title, a
 * right-to-left override and `<b>` markup reach the person plain, escaped on Linux and bounded;
 * a replaced text shows what comes; the client that asked is named when it said who it is.
 */
import { expect, it } from 'vitest';
import { boxText, noticeBody, noticeText } from '../../../../src-main/core/approvals/approval-text.ts';
import type { ProposalView } from '../../../../src-shared/ipc-contract.ts';

const HOSTILE_CHARS = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
const LONG = 'L'.repeat(5000);

function proposal(question: string, taken: Partial<ProposalView['taken']> = {}): ProposalView {
  return {
    id: 'p-1',
    question,
    graph: 'Work',
    tool: 'update_blocks',
    expiresAt: new Date(0).toISOString(),
    taken: { blocks: [], pages: [], replaced: [], moved: [], renames: [], files: [], hidden: 0, ...taken },
  };
}

const hostile = proposal(
  `Delete the page '<b>Approve</b> \u202Eskcolb 0001' and its 1000 blocks in graph 'Work'? ${LONG}`,
  {
    pages: [
      { title: `<b>x</b>\u202E${LONG}`, blocks: 1000, hidden: 0, linkedFrom: { blocks: 0, pages: [] } },
    ],
    blocks: Array.from({ length: 30 }, (_, i) => ({ text: `${LONG}\u202E${i}`, page: LONG })),
  },
);

it('a notification body is one plain line, bounded, with markup escaped on Linux only', () => {
  const linux = noticeText(3, hostile, 'linux');
  expect(linux.title).toBe('3 changes wait for your answer');
  expect(linux.body).not.toMatch(HOSTILE_CHARS);
  expect(linux.body).not.toContain('<b>');
  expect(linux.body).toContain('&lt;b&gt;Approve&lt;/b&gt;');
  expect(linux.body.endsWith('… (and 2 more)')).toBe(true);
  expect(linux.body.length).toBeLessThanOrEqual(300);
  const mac = noticeText(1, hostile, 'darwin');
  expect(mac.body).toContain('<b>Approve</b>');
  expect(mac.body).not.toMatch(HOSTILE_CHARS);
  expect([...mac.body].length).toBeLessThanOrEqual(240);
  expect(noticeBody(`<i>${LONG}`, 'linux').startsWith('&lt;i&gt;')).toBe(true);
});

it('a box says the question and what goes plain and bounded, however long the titles', () => {
  const { message, detail } = boxText(hostile, 0, '10:30');
  expect(message).not.toMatch(HOSTILE_CHARS);
  expect([...message].length).toBeLessThanOrEqual(400);
  expect(detail).not.toMatch(HOSTILE_CHARS);
  expect(detail.length).toBeLessThanOrEqual(6000);
  expect(detail).toContain('  and 22 more');
  expect(detail).toMatch(/Page deleted: '<b>x<\/b> L+…' \(1000 blocks\)/);
});

it('a replaced text shows the text that comes, and the client that asked is named', () => {
  const edit = proposal("Replace the text of 11 blocks on 'Ledger'?", {
    replaced: [
      { text: 'entry 1', page: 'Ledger', newText: 'Wire the money to account 666 [[Approved by CFO]]' },
    ],
  });
  const { detail } = boxText({ ...edit, client: 'claude-ai' }, 0, '10:30');
  expect(detail).toContain(
    "Text replaced (old → new):\n  – entry 1 → Wire the money to account 666 [[Approved by CFO]] · 'Ledger'",
  );
  expect(detail).toContain("Graph 'Work' · asked by claude-ai (update_blocks)");
  expect(boxText(edit, 0, '10:30').detail).toContain('asked by an AI client (update_blocks)');
});

it('a rewrite’s new blocks are listed beside what it takes', () => {
  const rewrite = proposal("Delete 11 blocks on 'Plans' and write 1 new block?", {
    blocks: [{ text: 'old step', page: 'Plans' }],
    added: [{ text: `Wire\u202E the money\n${LONG}`, page: 'Plans' }],
  });
  const { detail } = boxText(rewrite, 0, '10:30');
  expect(detail).toMatch(/Blocks written new:\n {2}– Wire the money L+… · 'Plans'/);
  expect(detail).not.toMatch(HOSTILE_CHARS);
});
