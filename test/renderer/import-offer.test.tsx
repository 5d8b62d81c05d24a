// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphsView } from '../../src-renderer/components/graphs-view.tsx';
import { graphView } from './fake-api.ts';
import { renderWithStores } from './render-app.tsx';

afterEach(cleanup);
const noop = () => undefined;
const found = async () => ({ available: true, path: '/home/u/.roam-tools.json', graphCount: 2 });

describe('Import offer', () => {
  it('is absent when there is nothing to import', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />);
    expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull();
  });

  it('imports the graphs of ~/.roam-tools.json on consent', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: { 'import:check': found, 'import:run': async () => [graphView('a'), graphView('b')] },
    });
    const offer = screen.getByRole('region', { name: 'Import graphs' });
    expect(offer.textContent).toContain('Found 2 graphs in /home/u/.roam-tools.json');
    await userEvent.click(within(offer).getByRole('button', { name: 'Import 2 graphs' }));
    expect(fake.calls.at(-1)?.channel).toBe('import:run');
    expect(await screen.findByRole('listitem', { name: 'a' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'b' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull();
  });

  it('shows why nothing was imported, and can be put off', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
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
    expect(screen.queryByRole('region', { name: 'Import graphs' })).toBeNull();
  });
});
