// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphsView } from '../../../../src-renderer/components/graphs/graphs-view.tsx';
import { graphView } from '../../fake-api.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);
const noop = () => undefined;
const found = async () => ({ available: true, path: '/home/u/.roam-tools.json', graphCount: 2 });

describe('Import offer', () => {
  it('is absent when there is nothing to import', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />);
    expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull();
  });

  it('imports the graphs of ~/.roam-tools.json on consent', async () => {
    const imported = [graphView('a'), graphView('b')];
    const { fake, emit } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: { 'import:check': found, 'import:run': async () => imported },
    });
    const offer = screen.getByRole('region', { name: 'Import graphs' });
    expect(offer.textContent).toContain('Found 2 graphs in /home/u/.roam-tools.json');
    await userEvent.click(within(offer).getByRole('button', { name: 'Import 2 graphs' }));
    expect(fake.calls.at(-1)?.channel).toBe('import:run');
    // As after every change, the core announces the new list.
    emit('graphs:changed', imported);
    expect(await screen.findByRole('listitem', { name: 'a' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'b' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull();
  });

  it('goes away once its graphs were added by hand, and counts only those left', async () => {
    let left = 2;
    const { emit } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: {
        'import:check': async () => ({
          available: left > 0,
          path: '/home/u/.roam-tools.json',
          graphCount: left,
        }),
      },
    });
    expect(screen.getByRole('region', { name: 'Import graphs' }).textContent).toContain('Found 2 graphs');
    left = 1;
    emit('graphs:changed', [graphView('a')]);
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Import graphs' }).textContent).toContain('Found 1 graph in'),
    );
    left = 0;
    emit('graphs:changed', [graphView('a'), graphView('b')]);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull());
  });

  it('says so when every graph of the file is already here, instead of nothing happening', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: {
        'graphs:list': async () => [graphView('a'), graphView('b')],
        'import:check': found,
        'import:run': async () => [graphView('a'), graphView('b')],
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Import 2 graphs' }));
    const note = await screen.findByRole('status', { name: 'Import result' });
    expect(note.textContent).toContain('Nothing new to import: all 2 graphs of the file are already here');
    await userEvent.click(within(note).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status', { name: 'Import result' })).toBeNull();
  });

  it('says how many were imported and how many were already here', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: {
        'graphs:list': async () => [graphView('a')],
        'import:check': found,
        'import:run': async () => [graphView('a'), graphView('b')],
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Import 2 graphs' }));
    expect((await screen.findByRole('status', { name: 'Import result' })).textContent).toBe(
      'Imported 1 graph. 1 graph already here was kept as it is.Dismiss',
    );
  });

  it('shows why nothing was imported, and can be put off', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: {
        'import:check': found,
        'import:run': async () => {
          throw new Error('Nothing was imported. Graph a: the token is a remote API token.');
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Import 2 graphs' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Nothing was imported.');
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull());
    expect(fake.calls.at(-1)?.channel).toBe('import:dismiss');
  });
});
