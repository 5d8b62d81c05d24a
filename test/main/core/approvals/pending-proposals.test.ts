// The core's list of changes waiting for the person, fed the messages its HTTP server child sends
// (src-shared/child-ipc.ts): bounded against an agent flooding it, expired ones leave on their own,
// and an answer with no server to take it, or in flight when the server stops, is told so.
import { expect, it } from 'vitest';
import { pendingProposals } from '../../../../src-main/core/approvals/pending-proposals.ts';
import type { ParentMessage } from '../../../../src-shared/child-ipc.ts';
import type { ProposalView } from '../../../../src-shared/ipc-contract.ts';
import { waitFor } from '../../helpers.ts';

const proposal = (id: string, expiresInMs = 600_000): ProposalView => ({
  id,
  question: `Delete the page '${id}'?`,
  graph: 'Work',
  tool: 'delete_page',
  expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  taken: { blocks: [], pages: [], replaced: [], moved: [], renames: [], files: [], hidden: 0 },
});

it('shows at most 50 at once; the rest stay answerable in their chats', () => {
  const pending = pendingProposals(() => {});
  for (let i = 0; i < 80; i++) pending.heard({ type: 'proposal', proposal: proposal(`p-${i}`) });
  expect(pending.list()).toHaveLength(50);
  expect(pending.list().at(-1)?.id).toBe('p-49');
});

it('an expired proposal leaves the list without a word from the server, and cannot be answered', async () => {
  let published: ProposalView[] = [];
  const pending = pendingProposals((list) => (published = list));
  pending.serverIs(() => {});
  pending.heard({ type: 'proposal', proposal: proposal('p-soon', 50) });
  pending.heard({ type: 'proposal', proposal: proposal('p-later') });
  expect(published.map((p) => p.id)).toEqual(['p-soon', 'p-later']);
  await waitFor(() => (published.length === 1 ? true : undefined));
  expect(published.map((p) => p.id)).toEqual(['p-later']);
  await expect(pending.answer('p-soon', 'approve')).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

it('an answer in flight when the server stops is told it changed nothing; with no server, none is sent', async () => {
  const sent: ParentMessage[] = [];
  const pending = pendingProposals(() => {});
  pending.serverIs((message) => sent.push(message));
  pending.heard({ type: 'proposal', proposal: proposal('p-1') });
  const answer = pending.answer('p-1', 'approve');
  // A second answer while the first is on its way is refused.
  await expect(pending.answer('p-1', 'keep')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  pending.serverIs(undefined);
  await expect(answer).resolves.toEqual({
    done: false,
    outcome: expect.stringMatching(/Nothing was changed/),
  });
  expect(sent).toEqual([{ type: 'proposal-answer', id: 'p-1', answer: 'approve' }]);
  expect(pending.list()).toEqual([]);
  pending.heard({ type: 'proposal', proposal: proposal('p-2') });
  await expect(pending.answer('p-2', 'approve')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(sent).toHaveLength(1);
});

it('another server’s proposals are answered back to it; when it goes, only its proposals go', async () => {
  const main: ParentMessage[] = [];
  const other: ParentMessage[] = [];
  const pending = pendingProposals(() => {});
  pending.serverIs((message) => main.push(message));
  const standIn = pending.addServer((message) => other.push(message));
  pending.heard({ type: 'proposal', proposal: proposal('p-main') });
  standIn.heard({ type: 'proposal', proposal: proposal('p-other') });
  expect(pending.list().map((p) => p.id)).toEqual(['p-main', 'p-other']);

  const answered = pending.answer('p-other', 'approve');
  expect(other).toEqual([{ type: 'proposal-answer', id: 'p-other', answer: 'approve' }]);
  expect(main).toEqual([]);
  standIn.heard({ type: 'proposal-answered', id: 'p-other', done: true, outcome: 'Approved and done.' });
  await expect(answered).resolves.toEqual({ done: true, outcome: 'Approved and done.' });

  standIn.heard({ type: 'proposal', proposal: proposal('p-other-2') });
  const cut = pending.answer('p-other-2', 'keep');
  standIn.gone();
  await expect(cut).resolves.toMatchObject({
    done: false,
    outcome: expect.stringMatching(/Nothing was changed/),
  });
  expect(pending.list().map((p) => p.id)).toEqual(['p-main']);
  // A new main server drops the main one's proposals and none of a stand-in's.
  const again = pending.addServer(() => {});
  again.heard({ type: 'proposal', proposal: proposal('p-third') });
  pending.serverIs(undefined);
  expect(pending.list().map((p) => p.id)).toEqual(['p-third']);
});
