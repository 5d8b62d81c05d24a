// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { KeysView } from '../../../../src-renderer/components/clients/keys-view.tsx';
import type { KeyView } from '../../../../src-shared/ipc-contract.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);

const keys: KeyView[] = [
  { name: 'cursor', createdAt: '2026-11-20T10:00:00.000Z', usedBy: ['Cursor'] },
  { name: 'reader', access: 'read-only', createdAt: '2026-11-21T10:00:00.000Z', usedBy: [] },
];

it('is absent without keys', async () => {
  const { container } = await renderWithStores(<KeysView />);
  await waitFor(() => expect(container.textContent).toBe(''));
});

it('lists keys by name, the client using each and level; Revoke asks first, Cancel keeps the key, Revoke removes it', async () => {
  let current = [...keys];
  const { fake } = await renderWithStores(<KeysView />, {
    overrides: {
      'keys:list': async () => current,
      'keys:revoke': async ({ name }) => (current = current.filter((k) => k.name !== name)),
    },
  });
  const list = await screen.findByRole('list', { name: 'Client keys' });
  const rows = within(list).getAllByRole('listitem');
  expect(rows.map((row) => row.textContent)).toEqual([
    expect.stringContaining("cursorused by Cursor · each graph's own level"),
    expect.stringContaining('readerused by no client listed here · at most read-only'),
  ]);
  const reader = rows[1]!;
  // Each Revoke is named by its key, so a screen reader's list of buttons tells them apart.
  expect(
    within(list)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label')),
  ).toEqual(['Revoke the key cursor', 'Revoke the key reader']);
  await userEvent.click(within(reader).getByRole('button', { name: 'Revoke the key reader' }));
  await userEvent.click(within(reader).getByRole('button', { name: 'Cancel' }));
  expect(fake.calls.some((c) => c.channel === 'keys:revoke')).toBe(false);
  await userEvent.click(within(reader).getByRole('button', { name: 'Revoke the key reader' }));
  const dialog = within(reader).getByRole('alertdialog');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
  expect(fake.calls.filter((c) => !c.channel.endsWith(':list')).at(-1)).toEqual({
    channel: 'keys:revoke',
    input: { name: 'reader' },
  });
  await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
});

it('a failed revoke says why and keeps the row', async () => {
  await renderWithStores(<KeysView />, {
    overrides: {
      'keys:list': async () => keys,
      'keys:revoke': async () => {
        throw Object.assign(new Error("There is no key named 'cursor'."), { code: 'NOT_FOUND' });
      },
    },
  });
  const row = (await screen.findAllByRole('listitem'))[0]!;
  await userEvent.click(within(row).getByRole('button', { name: 'Revoke the key cursor' }));
  await userEvent.click(within(within(row).getByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
  expect((await within(row).findByRole('alert')).textContent).toContain("no key named 'cursor'");
  expect(screen.getAllByRole('listitem')).toHaveLength(2);
});
