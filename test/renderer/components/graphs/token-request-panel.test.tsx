// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GraphsView } from '../../../../src-renderer/components/graphs/graphs-view.tsx';
import { graphView, requestView } from '../../fake-api.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);

async function setup() {
  const onShowBlocked = vi.fn();
  const rendered = await renderWithStores(<GraphsView onShowBlocked={onShowBlocked} />, {
    graphs: [graphView('work')],
  });
  return {
    ...rendered,
    onShowBlocked,
    panel: () => screen.getByRole('region', { name: 'Token request for work' }),
  };
}

describe('Token request panel', () => {
  it('counts down from expiresAt and cancels', async () => {
    const { fake, emit, panel } = await setup();
    const startedAt = Date.now();
    emit('tokens:request-changed', requestView('hosted:work', { startedAt, expiresAt: startedAt + 83_000 }));
    expect(within(panel()).getByLabelText(/^1:2[23] left$/)).toBeTruthy();
    await userEvent.click(within(panel()).getByRole('button', { name: 'Cancel request' }));
    expect(fake.calls.at(-1)).toEqual({ channel: 'tokens:cancel', input: { id: 'hosted:work' } });
  });

  it('shows approval and flags a downgrade', async () => {
    const { emit, panel } = await setup();
    const waiting = requestView('hosted:work', { requestedAccessLevel: 'full' });
    emit('tokens:request-changed', waiting);
    emit('tokens:request-changed', {
      ...waiting,
      status: 'approved',
      grantedAccessLevel: 'read-only',
      downgraded: true,
    });
    await waitFor(() =>
      expect(panel().textContent).toContain('Approved with less access than you chose: work is connected.'),
    );
    expect(panel().textContent).toContain('Granted access: Read only (you asked for Full');
    await userEvent.click(within(panel()).getByRole('button', { name: /^Dismiss/ }));
    expect(screen.queryByRole('region', { name: 'Token request for work' })).toBeNull();
  });

  it('ignores an event about an older request than the one shown', async () => {
    const { emit, panel } = await setup();
    emit('tokens:request-changed', requestView('hosted:work', { startedAt: 2000, status: 'waiting' }));
    emit('tokens:request-changed', requestView('hosted:work', { startedAt: 1000, status: 'rejected' }));
    expect(panel().textContent).toContain('Approve the dialog in Roam Desktop');
  });

  it('offers a retry after a rejection and a timeout', async () => {
    const { fake, emit, panel } = await setup();
    emit(
      'tokens:request-changed',
      requestView('hosted:work', { status: 'rejected', requestedAccessLevel: 'full', mayAskAgain: true }),
    );
    expect(panel().textContent).toContain('The request for work was declined in Roam.');
    // One way to ask again: the row's own "Request token" steps aside while "Try again" is offered.
    expect(screen.queryByRole('button', { name: 'Request token for work' })).toBeNull();
    await userEvent.click(within(panel()).getByRole('button', { name: 'Try again' }));
    // Asked again for what the graph is set to now, not for the level of the old request.
    expect(fake.calls.at(-1)).toEqual({ channel: 'tokens:request', input: { id: 'hosted:work' } });
    await waitFor(() => expect(panel().textContent).toContain('Approve the dialog'));

    emit(
      'tokens:request-changed',
      requestView('hosted:work', { status: 'timeout', startedAt: Date.now() + 1, mayAskAgain: true }),
    );
    await waitFor(() => expect(panel().textContent).toContain('after 5 minutes without an answer'));
    expect(within(panel()).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('drops a finished panel when the core says the state it described is gone', async () => {
    const { emit } = await setup();
    const rejected = requestView('hosted:work', { status: 'rejected', mayAskAgain: true });
    emit('tokens:request-changed', rejected);
    expect(screen.getByRole('region', { name: 'Token request for work' })).toBeTruthy();
    // A removal about an older request of the graph changes nothing.
    emit('tokens:request-removed', { graphId: 'hosted:work', startedAt: rejected.startedAt - 1 });
    expect(screen.getByRole('region', { name: 'Token request for work' })).toBeTruthy();
    emit('tokens:request-removed', { graphId: 'hosted:work', startedAt: rejected.startedAt });
    expect(screen.queryByRole('region', { name: 'Token request for work' })).toBeNull();
  });

  it('sends a never-allow to Blocked', async () => {
    const { emit, panel, onShowBlocked } = await setup();
    emit('tokens:request-changed', requestView('hosted:work', { status: 'blocked', mayAskAgain: false }));
    expect(panel().textContent).toContain('“Never Allow” was chosen in Roam');
    expect(within(panel()).queryByRole('button', { name: 'Try again' })).toBeNull();
    await userEvent.click(within(panel()).getByRole('button', { name: 'Show blocked graphs' }));
    expect(onShowBlocked).toHaveBeenCalledOnce();
  });

  it('says what a Never Allow did to a graph that keeps its token: it stays here, its token still works', async () => {
    const { emit, panel } = await setup(); // 'work' holds a token that works
    emit('tokens:request-changed', requestView('hosted:work', { status: 'blocked', mayAskAgain: false }));
    const text = panel().textContent ?? '';
    expect(text).not.toMatch(/moved to Blocked/i);
    expect(text).toContain('Blocked lists it');
    expect(text).toContain('Its current token still works');
    expect(screen.getByRole('listitem', { name: 'work' }).textContent).toContain('Token ok');
  });
});

describe('tokens store ordering', () => {
  it('keeps the outcome when the call answer "waiting" arrives after the outcome event', async () => {
    const startedAt = Date.now();
    const { stores, emit } = await renderWithStores(<></>, {
      graphs: [graphView('work')],
      overrides: {
        // The outcome event overtakes the HTTP answer, as happens when Roam answers at once.
        'tokens:request': async (input) => {
          emit('tokens:request-changed', requestView(input.id, { startedAt, status: 'rejected' }));
          return requestView(input.id, { startedAt, status: 'waiting' });
        },
      },
    });
    await stores.tokens.getState().request('hosted:work');
    expect(stores.tokens.getState().requests['hosted:work']?.status).toBe('rejected');
  });
});
