/**
 * A proposal's one-time code (src-mcp/gate/proposals.ts) expires with it: after WINDOW_MS the right
 * values answer nothing and list_changes' view of it says it expired. The clock is the test's.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { NOTHING_TAKEN } from '../../../src-mcp/contract/taken-away.ts';
import { chatProposals, propose, redeem, WAITING_PER_CHAT } from '../../../src-mcp/gate/proposals.ts';
import { WINDOW_MS } from '../../../src-mcp/gate/thresholds.ts';

afterEach(() => vi.useRealTimers());

const input = {
  tool: 'delete_page',
  args: { uid: 'page00001' },
  graph: 'g',
  graphKey: 'g',
  taken: NOTHING_TAKEN,
  fingerprint: 'f',
  question: 'Delete the page?',
  pages: ['Page'],
};

it('answers nothing once expired, and says so', () => {
  vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
  const { proposal, code } = propose(input);
  vi.setSystemTime(Date.now() + WINDOW_MS + 1);
  expect(() => redeem(proposal.id, code)).toThrow(/No waiting proposal matches/);
  expect(chatProposals().find((p) => p.id === proposal.id)).toMatchObject({ status: 'expired' });
});

it('answers once, just before it expires', () => {
  vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
  const { proposal, code } = propose(input);
  vi.setSystemTime(Date.now() + WINDOW_MS - 1);
  expect(redeem(proposal.id, code).id).toBe(proposal.id);
  expect(() => redeem(proposal.id, code)).toThrow(/No waiting proposal matches/);
});

it('holds at most WAITING_PER_CHAT waiting proposals per chat: a flood withdraws the oldest, whose code then answers nothing', () => {
  const made = Array.from({ length: WAITING_PER_CHAT + 5 }, () => propose(input));
  const mine = new Set(made.map((m) => m.proposal.id));
  const views = chatProposals().filter((p) => mine.has(p.id));
  expect(views.filter((p) => p.status === 'waiting')).toHaveLength(WAITING_PER_CHAT);
  const [oldest] = made;
  expect(views.find((p) => p.id === oldest!.proposal.id)).toMatchObject({
    status: 'failed',
    outcome: expect.stringMatching(/^Withdrawn: .* Nothing was changed\.$/),
  });
  expect(() => redeem(oldest!.proposal.id, oldest!.code)).toThrow(/No waiting proposal matches/);
  const newest = made.at(-1)!;
  expect(redeem(newest.proposal.id, newest.code).id).toBe(newest.proposal.id);
});
