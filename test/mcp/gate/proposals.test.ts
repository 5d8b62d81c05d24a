/**
 * A proposal's one-time code (src-mcp/gate/proposals.ts) expires with it: after WINDOW_MS the right
 * values answer nothing and list_changes' view of it says it expired. The clock is the test's.
 * Each server keeps its own proposals: each test makes its own registry, as run-server.ts does.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { NOTHING_TAKEN } from '../../../src-mcp/contract/taken-away.ts';
import { Proposals, WAITING_PER_CHAT, type ShownProposal } from '../../../src-mcp/gate/proposals.ts';
import { WINDOW_MS } from '../../../src-mcp/gate/thresholds.ts';

afterEach(() => vi.useRealTimers());

const input = {
  tool: 'delete_page',
  args: { uid: 'page00001' },
  graph: 'g',
  taken: NOTHING_TAKEN,
  shown: [{ graph: { id: 'hosted:g', nickname: 'g' }, taken: NOTHING_TAKEN }],
  question: 'Delete the page?',
  pages: [{ graph: 'hosted:g', pages: ['Page'] }],
};

it('answers nothing once expired, and says so', () => {
  vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
  const proposals = new Proposals();
  const { proposal, code } = proposals.propose(input);
  vi.setSystemTime(Date.now() + WINDOW_MS + 1);
  expect(() => proposals.redeem(proposal.id, code)).toThrow(/No waiting proposal matches/);
  expect(proposals.ofChat().find((p) => p.id === proposal.id)).toMatchObject({ status: 'expired' });
});

it('answers once, just before it expires', () => {
  vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
  const proposals = new Proposals();
  const { proposal, code } = proposals.propose(input);
  vi.setSystemTime(Date.now() + WINDOW_MS - 1);
  expect(proposals.redeem(proposal.id, code).id).toBe(proposal.id);
  expect(() => proposals.redeem(proposal.id, code)).toThrow(/No waiting proposal matches/);
});

it('holds at most WAITING_PER_CHAT waiting proposals per chat: a flood withdraws the oldest, whose code then answers nothing', () => {
  const proposals = new Proposals();
  const made = Array.from({ length: WAITING_PER_CHAT + 5 }, () => proposals.propose(input));
  const views = proposals.ofChat();
  expect(views).toHaveLength(made.length);
  expect(views.filter((p) => p.status === 'waiting')).toHaveLength(WAITING_PER_CHAT);
  const [oldest] = made;
  expect(views.find((p) => p.id === oldest!.proposal.id)).toMatchObject({
    status: 'failed',
    outcome: expect.stringMatching(/^Withdrawn: .* Nothing was changed\.$/),
  });
  expect(() => proposals.redeem(oldest!.proposal.id, oldest!.code)).toThrow(/No waiting proposal matches/);
  const newest = made.at(-1)!;
  expect(proposals.redeem(newest.proposal.id, newest.code).id).toBe(newest.proposal.id);
});

it("is one server's: another registry neither lists nor answers its proposals, nor shows them in its tray", async () => {
  const mine = new Proposals();
  const theirs = new Proposals();
  const shownTheirs: ShownProposal[] = [];
  theirs.watch({ proposed: (p) => shownTheirs.push(p), closed: () => {} });
  expect([mine.trayShows(), theirs.trayShows()]).toEqual([false, true]);
  const { proposal, code } = mine.propose(input);
  mine.offerInTray(proposal, () => Promise.resolve({ done: true, outcome: 'ran' }));
  expect(theirs.ofChat()).toEqual([]);
  expect(theirs.fate(proposal.id)).toMatchObject({ status: 'unknown' });
  expect(() => theirs.redeem(proposal.id, code)).toThrow(/No waiting proposal matches/);
  expect(await theirs.answerInTray(proposal.id, 'approve')).toMatchObject({ done: false });
  expect(shownTheirs).toEqual([]);
  // Still waiting in its own registry, and answered there once.
  expect(mine.fate(proposal.id)).toMatchObject({ status: 'waiting' });
  expect(mine.redeem(proposal.id, code).id).toBe(proposal.id);
});

it('goes to the tray only while one watches, and an answer there runs once', async () => {
  const proposals = new Proposals();
  const shown: ShownProposal[] = [];
  const closed: string[] = [];
  const answers: string[] = [];
  const answer = (a: string) => {
    answers.push(a);
    return Promise.resolve({ done: true, outcome: `answered ${a}` });
  };
  const unseen = proposals.propose(input).proposal;
  proposals.offerInTray(unseen, answer);
  proposals.watch({ proposed: (p) => shown.push(p), closed: (id) => closed.push(id) });
  const { proposal: seen, code } = proposals.propose(input);
  proposals.offerInTray(seen, answer);
  expect(shown.map((p) => p.id)).toEqual([seen.id]);
  // Offered before the tray watched: it has no answer there.
  expect(await proposals.answerInTray(unseen.id, 'approve')).toMatchObject({ done: false });
  expect(await proposals.answerInTray(seen.id, 'keep')).toEqual({ done: true, outcome: 'answered keep' });
  expect(await proposals.answerInTray(seen.id, 'approve')).toMatchObject({ done: false });
  expect(answers).toEqual(['keep']);
  // What keep_change does with the answer: the tray is told the proposal closed.
  proposals.redeem(seen.id, code);
  expect(closed).toEqual([seen.id]);
  proposals.watch(undefined);
  expect(proposals.trayShows()).toBe(false);
});
