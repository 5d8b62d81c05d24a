// @vitest-environment jsdom
/**
 * The Activity view against stores fed by a fake bridge: the empty state, the live feed and its
 * graph filter, an undo that shows its dry run before anything is applied, the tray menu's
 * "show Activity", and today's count in the status bar.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityView } from '../../../../src-renderer/components/activity/activity-view.tsx';
import { App } from '../../../../src-renderer/components/app.tsx';
import { StatusBar } from '../../../../src-renderer/components/status-bar.tsx';
import type { ActivityChangeView, ActivityFeedView } from '../../../../src-shared/ipc-contract.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);

const change = (id: string, graph: string, summary: string): ActivityChangeView => ({
  id,
  at: new Date().toISOString(),
  graph,
  nickname: graph,
  tool: 'update_block',
  summary,
  status: 'applied',
  undoable: true,
  undone: false,
  isUndo: false,
  details: [],
});

const feed: ActivityFeedView = {
  today: 2,
  truncated: false,
  chats: [
    {
      id: 'chat-1',
      client: 'Cursor',
      kind: 'agent',
      startedAt: new Date().toISOString(),
      graphs: ['Work', 'Home'],
      changes: [
        change('c2', 'Home', "Deleted page 'Target' (3 blocks)"),
        change('c1', 'Work', 'Edited a block'),
      ],
    },
  ],
};

describe('Activity view', () => {
  it('says what will appear here before any agent changed anything', async () => {
    await renderWithStores(<ActivityView />);
    expect(screen.getByText('No agent has changed a graph yet.')).toBeTruthy();
  });

  it('shows the feed live, filters it by graph, and counts today’s changes in the status bar', async () => {
    const { emit, fake } = await renderWithStores(
      <>
        <ActivityView />
        <StatusBar />
      </>,
    );
    emit('activity:changed', feed);
    const chat = screen.getByRole('listitem', { name: /^Cursor, started/ });
    expect(
      within(chat)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(["Deleted page 'Target' (3 blocks)", 'Edited a block']);
    expect(screen.getByRole('contentinfo', { name: 'Status' }).textContent).toContain(
      '2 agent changes today',
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Graph' }), 'Work');
    expect(
      within(chat)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Edited a block']);
    // Undoing the chat from a filtered view takes back only its changes to that graph.
    // Named by its chat, so two chats' buttons differ for a screen reader.
    await userEvent.click(
      within(chat).getByRole('button', { name: /^Undo this chat here… \(Cursor, started \d/ }),
    );
    await screen.findByRole('dialog', { name: 'Undo this chat’s changes to this graph?' });
    const undo = fake.calls.filter((c) => c.channel === 'activity:undo');
    expect(undo).toEqual([
      { channel: 'activity:undo', input: { chat: 'chat-1', graph: 'Work', dryRun: true } },
    ]);
  });

  it('a chat through remote access is marked remote, apart from a local chat of the same client', async () => {
    const { emit } = await renderWithStores(<ActivityView />);
    const chat = (id: string, remote: boolean) => ({
      id,
      client: 'Claude',
      kind: 'agent' as const,
      ...(remote ? { remote: true as const } : {}),
      startedAt: '2026-12-07T10:00:00.000Z',
      graphs: ['Work'],
      changes: [change(`${id}-1`, 'Work', 'Created a block')],
    });
    emit('activity:changed', { today: 2, truncated: false, chats: [chat('far', true), chat('near', false)] });
    const titles = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(titles).toEqual(['Claude (remote)', 'Claude']);
  });

  it('two chats of one client read apart, and a step that only repeats its state is not said twice', async () => {
    const { emit } = await renderWithStores(<ActivityView />);
    const inspector = (id: string, startedAt: string, changes: ActivityChangeView[]) => ({
      id,
      client: 'inspector-cli',
      kind: 'agent' as const,
      startedAt,
      graphs: ['Work'],
      changes,
    });
    const undone: ActivityChangeView = {
      ...change('a1', 'Work', 'Edited a block'),
      undone: true,
      lastUndo: {
        at: new Date().toISOString(),
        steps: [{ status: 'already-undone', detail: 'already undone' }],
      },
    };
    emit('activity:changed', {
      today: 2,
      truncated: false,
      // Newest first, as the feed sends them: the later chat is listed first and numbered 2.
      chats: [
        inspector('later', '2026-12-07T10:05:00.000Z', [change('b1', 'Work', 'Created a block')]),
        inspector('earlier', '2026-12-07T10:00:00.000Z', [undone]),
      ],
    });
    const titles = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(titles).toEqual(['inspector-cli · chat 2', 'inspector-cli · chat 1']);
    expect(document.body.textContent).not.toMatch(/already undone: already undone/i);
  });

  it('a person’s undo says what it took back and what it left alone, when it was, and its redo puts back what it took', async () => {
    const at = new Date(2026, 10, 26, 14, 5).toISOString();
    const undo: ActivityChangeView = {
      ...change('u1', 'Work', 'Undid 2 changes (3 steps)'),
      at,
      tool: 'Roam Companion',
      isUndo: true,
      undid: ["Deleted page 'Target' (3 blocks)"],
      leftAlone: ['Edited a block'],
    };
    const withUndo: ActivityFeedView = {
      ...feed,
      chats: [
        ...feed.chats,
        {
          id: 'person-1',
          client: 'Roam Companion',
          kind: 'person',
          startedAt: new Date(2026, 10, 26, 9, 0).toISOString(),
          graphs: ['Work'],
          changes: [undo],
        },
      ],
    };
    const { emit } = await renderWithStores(<ActivityView />, {
      overrides: {
        'activity:undo': async ({ dryRun }) => ({
          dryRun,
          changes: [{ id: 'u1', summary: 'Undid 2 changes (3 steps)', result: 'would-undo', steps: [] }],
          undone: 1,
          conflicts: 0,
        }),
      },
    });
    emit('activity:changed', withUndo);
    // When the latest undo was, not when the tray started.
    const yours = screen.getByRole('listitem', { name: /^Your undos in Roam Companion, latest Nov 26, / });
    const notes = within(yours).getByRole('list', { name: 'What this undo took back' });
    expect(
      within(notes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(["Took back: Deleted page 'Target' (3 blocks)", 'Left alone (changed since): Edited a block']);
    await userEvent.click(within(yours).getByRole('button', { name: /^Redo: / }));
    const dialog = await screen.findByRole('dialog', { name: 'Redo: put back what this undo took back?' });
    const report = within(dialog).getByRole('region', { name: 'What the undo covers' });
    expect(report.textContent).toContain("Will be put back: Deleted page 'Target' (3 blocks)");
    expect(report.textContent).not.toContain('Undid 2 changes');
  });

  it('runs an undo dry first; Escape cancels it and nothing is applied', async () => {
    const { emit, fake } = await renderWithStores(<ActivityView />);
    emit('activity:changed', feed);
    await userEvent.click(screen.getByRole('button', { name: 'Undo: Edited a block' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo this change?' });
    expect(fake.calls.at(-1)).toEqual({ channel: 'activity:undo', input: { ids: ['c1'], dryRun: true } });
    expect(within(dialog).getByText(/Nothing here can be undone now/)).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.filter((c) => c.channel === 'activity:undo')).toHaveLength(1);
  });

  it('the undo button says what it is doing while the undo runs', async () => {
    let finish: () => void = () => {};
    const report = (dryRun: boolean) => ({
      dryRun,
      changes: [{ id: 'c1', summary: 'Edited a block', result: dryRun ? 'would-undo' : 'undone', steps: [] }],
      undone: 1,
      conflicts: 0,
    });
    const { emit } = await renderWithStores(<ActivityView />, {
      overrides: {
        'activity:undo': (input) =>
          input.dryRun
            ? Promise.resolve(report(true))
            : new Promise((resolve) => (finish = () => resolve(report(false)))),
      },
    });
    emit('activity:changed', feed);
    await userEvent.click(screen.getByRole('button', { name: 'Undo: Edited a block' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo this change?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Undo now' }));
    const running = within(dialog).getByRole('button', { name: 'Undoing…' });
    expect((running as HTMLButtonElement).disabled).toBe(true);
    finish();
    expect(await screen.findByRole('status', { name: 'Undo of this change' })).toBeTruthy();
  });

  it('switches to Activity when the tray menu asks', async () => {
    const { emit } = await renderWithStores(<App />);
    emit('activity:show', {});
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Activity' }).getAttribute('aria-selected')).toBe('true'),
    );
  });
});
