// @vitest-environment jsdom
// The tray's approvals panel against stores fed by the fake bridge: who asked, the question in
// plain weight, Approve first, and a write that takes nothing away (every change asked) drawn
// without an empty box.
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { ApprovalsPanel } from '../../../../src-renderer/components/approvals/approvals-panel.tsx';
import type { ProposalView } from '../../../../src-shared/ipc-contract.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);

const nothingTaken: ProposalView['taken'] = {
  blocks: [],
  pages: [],
  replaced: [],
  moved: [],
  renames: [],
  files: [],
  hidden: 0,
};
const proposal = (extra: Partial<ProposalView>): ProposalView => ({
  id: 'p-1',
  question:
    "Let the agent run create_block ('a draft') in graph 'Work'? The person asked to approve every change to this graph.",
  graph: 'Work',
  tool: 'create_block',
  client: 'Cursor',
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  taken: nothingTaken,
  ...extra,
});

it('a small write under "every change": who asked, no empty box, Approve first and answered', async () => {
  const { fake } = await renderWithStores(<ApprovalsPanel />, {
    overrides: {
      'proposals:list': async () => [proposal({})],
      'proposals:answer': async () => ({
        done: true,
        outcome: 'Approved by the person and done (create_block); it can be undone with undo_changes.',
      }),
    },
  });
  const card = screen.getByRole('listitem', { name: /^Let the agent run create_block/ });
  expect(card.textContent).toContain('asked by Cursor (create_block)');
  expect(card.textContent).toContain('Nothing is taken away: it only writes what the question says.');
  expect(within(card).queryByRole('group')).toBeNull();
  const buttons = within(card).getAllByRole('button');
  expect(buttons.map((b) => b.textContent)).toEqual(['Approve', 'Keep as it is']);
  expect(buttons[0]!.className).toBe('primary');
  await userEvent.click(buttons[0]!);
  expect(fake.calls.at(-1)).toEqual({ channel: 'proposals:answer', input: { id: 'p-1', answer: 'approve' } });
});

it('a delete still draws what goes in its own box', async () => {
  await renderWithStores(<ApprovalsPanel />, {
    overrides: {
      'proposals:list': async () => [
        proposal({
          question: "Delete 12 blocks on 'Project'?",
          tool: 'delete_block',
          taken: { ...nothingTaken, blocks: [{ text: 'first line', page: 'Project' }] },
        }),
      ],
    },
  });
  const box = screen.getByRole('group', { name: 'What delete_block would change' });
  expect(box.textContent).toContain('first line');
  expect(screen.queryByText(/Nothing is taken away/)).toBeNull();
});
