// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphsView } from '../../../../src-renderer/components/graphs/graphs-view.tsx';
import { graphView } from '../../fake-api.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);
const noop = () => undefined;

describe('Graphs view', () => {
  it('shows an empty state that says what to do', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />);
    expect(screen.getByText('No graphs yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add graph' })).toBeTruthy();
  });

  it('shows loading, then an error with a retry that recovers', async () => {
    let fail = true;
    const { stores } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      load: false,
      graphs: [graphView('work')],
      overrides: {
        'graphs:list': async () => {
          if (fail) throw new Error('Roam Companion could not read its store. Restart the app.');
          return [graphView('work')];
        },
      },
    });
    expect(screen.getByRole('status').textContent).toMatch(/Loading your graphs/);
    await stores.graphs.getState().refresh();
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not read its store/);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'work' })).toBeTruthy();
  });

  it('shows one row per graph with name, type, access level and token state', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [
        graphView('team-notes', { nickname: 'team', accessLevel: 'full' }),
        graphView('diary', { type: 'offline', id: 'offline:diary', token: { state: 'revoked' } }),
      ],
    });
    const team = screen.getByRole('listitem', { name: 'team' });
    expect(team.textContent).toContain('team-notes · Hosted');
    expect(team.textContent).toContain('Access: Full');
    expect(team.textContent).toContain('Token ok ··ab12');
    const diary = screen.getByRole('listitem', { name: 'diary' });
    expect(diary.textContent).toContain('diary · Offline');
    expect(diary.textContent).toContain('Access: Read only');
    expect(diary.textContent).toContain('Token revoked');
  });

  it('toggles a graph through graphs:update and follows graphs:changed events', async () => {
    const { fake, emit } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work')],
    });
    const toggle = screen.getByRole('switch', { name: 'Enabled: work' });
    await userEvent.click(toggle);
    expect(fake.calls.at(-1)).toEqual({
      channel: 'graphs:update',
      input: { id: 'hosted:work', enabled: false },
    });
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));

    emit('graphs:changed', [graphView('work', { token: { state: 'waiting' } })]);
    await waitFor(() =>
      expect(screen.getByRole('listitem', { name: 'work' }).textContent).toContain('Waiting'),
    );
    expect(screen.getByRole('button', { name: 'Request token for work' })).toHaveProperty('disabled', true);
  });

  it('removes a graph only after confirmation', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work'), graphView('home')],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Remove work' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove work?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.calls.some((c) => c.channel === 'graphs:remove')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Remove work' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'work' })).toBeNull());
    expect(screen.getByRole('listitem', { name: 'home' })).toBeTruthy();
  });

  it('copies the nickname', async () => {
    const user = userEvent.setup();
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work', { nickname: 'w' })],
    });
    await user.click(screen.getByRole('button', { name: 'Copy nickname w' }));
    expect(await navigator.clipboard.readText()).toBe('w');
    expect(screen.getByText('Copied')).toBeTruthy();
  });

  it('edits a graph with live nickname validation against the others', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work'), graphView('home')],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    const form = screen.getByRole('form', { name: 'Edit work' });
    const nickname = within(form).getByRole('textbox', { name: 'Nickname' });
    // Its own nickname, unchanged, is not news: no "Nickname is free."
    await within(form).findByText('The nickname agents use now.');
    expect(within(form).queryByText('Nickname is free.')).toBeNull();
    await userEvent.clear(nickname);
    await userEvent.type(nickname, 'HOME');
    expect(
      await within(form).findByText("The nickname 'HOME' is already used. Choose another."),
    ).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);

    await userEvent.clear(nickname);
    await userEvent.type(nickname, 'job');
    await within(form).findByText('Nickname is free.');
    await userEvent.click(within(form).getByRole('radio', { name: /Read \+ append/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(fake.calls.at(-1)).toEqual({
      channel: 'graphs:update',
      input: { id: 'hosted:work', nickname: 'job', description: '', accessLevel: 'read-append' },
    });
    expect(await screen.findByRole('listitem', { name: 'job' })).toBeTruthy();
  });

  it('says on the row when a graph asks before every change or never, and nothing for the default', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [
        graphView('careful', { confirm: 'every-write', confirmOwn: true }),
        graphView('relaxed', { confirm: 'never', confirmOwn: false }),
        graphView('plain', { confirm: 'destructive' }),
      ],
    });
    expect(screen.getByRole('listitem', { name: 'careful' }).textContent).toContain(
      'Asks you before every change',
    );
    expect(screen.getByRole('listitem', { name: 'relaxed' }).textContent).toContain(
      'Never asks you: agents write without asking',
    );
    expect(screen.getByRole('listitem', { name: 'plain' }).textContent).not.toMatch(/asks you/i);
  });

  it('Edit chooses when agents ask: each choice in words, only a changed one is sent', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work', { confirm: 'destructive', confirmOwn: false })],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Edit work' }));
    const form = screen.getByRole('form', { name: 'Edit work' });
    const group = within(form).getByRole('group', { name: 'Ask me before' });
    const choices = within(group).getAllByRole('radio');
    expect(choices.map((c) => c.closest('label')?.textContent)).toEqual([
      expect.stringMatching(
        /^Changes that take much away — Deleting more than 10 blocks or a page with content.*The default\.$/,
      ),
      expect.stringMatching(
        /^Every change — The agent drafts each change; nothing is written until you approve it/,
      ),
      expect.stringMatching(
        /^Never — Agents write without asking\. Every change is still listed in Activity/,
      ),
    ]);
    expect(within(group).getByRole('radio', { name: /^Changes that take much away/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(group.getAttribute('aria-describedby')).toBeTruthy();
    expect(group.textContent).toContain('As in Settings until you choose here');
    // (The arrow keys within the group are the browser's: test/e2e/tray-graph-confirm.test.ts.)
    await userEvent.click(within(group).getByRole('radio', { name: /^Every change/ }));
    expect(within(group).getByRole('radio', { name: /^Every change/ })).toHaveProperty('checked', true);
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(fake.calls.at(-1)).toEqual({
      channel: 'graphs:update',
      input: {
        id: 'hosted:work',
        nickname: 'work',
        description: '',
        accessLevel: 'read-only',
        confirm: 'every-write',
      },
    });
    expect((await screen.findByRole('listitem', { name: 'work' })).textContent).toContain(
      'Asks you before every change',
    );
  });

  it('shows a failed action as an alert on the row', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work')],
      overrides: {
        'tokens:request': async () => {
          throw new Error('Roam Desktop is not running. Open Roam Desktop, then request the token again.');
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Request token for work' }));
    const row = screen.getByRole('listitem', { name: 'work' });
    expect((await within(row).findByRole('alert')).textContent).toMatch(/Open Roam Desktop/);
  });

  it('takes the list only from the core’s graphs:changed event, never also from a call’s answer', async () => {
    const { stores, emit } = await renderWithStores(<></>, {
      overrides: { 'graphs:add': async (input) => graphView(input.name) }, // the event comes separately
    });
    const added = await stores.graphs.getState().add({ name: 'work' });
    expect(added.name).toBe('work');
    expect(stores.graphs.getState().graphs).toEqual([]);
    emit('graphs:changed', [added]);
    expect(stores.graphs.getState().graphs).toEqual([added]);
  });
});
