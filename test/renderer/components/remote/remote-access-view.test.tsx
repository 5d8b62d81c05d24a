// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { App } from '../../../../src-renderer/components/app.tsx';
import { RemoteAccessView } from '../../../../src-renderer/components/remote/remote-access-view.tsx';
import type { RemoteRequestView, RemoteView } from '../../../../src-shared/ipc-contract.ts';
import { graphView } from '../../fake-api.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);

const checked = (element: HTMLElement) => (element as HTMLInputElement).checked;

const off: RemoteView = { on: false, listening: false, waiting: [], connections: [] };
const signIn: RemoteRequestView = {
  id: 'req12345',
  code: 'KQ7-4MZ',
  clientName: 'Claude',
  verified: false,
  redirectHost: 'claude.ai',
  scopes: ['mcp'],
  expiresAt: '2026-12-08T00:10:00.000Z',
};
const on: RemoteView = {
  on: true,
  publicUrl: 'https://roam.example.ts.net',
  localPort: 41234,
  listening: true,
  waiting: [signIn],
  connections: [
    {
      id: 'conn0001',
      clientName: 'ChatGPT',
      verified: true,
      redirectHost: 'chatgpt.com',
      level: 'read-only',
      toolsets: ['core'],
      createdAt: '2026-12-07T20:00:00.000Z',
      usedAt: '2026-12-07T23:00:00.000Z',
    },
  ],
};

it('off: says what it is for; turning on without an address says what to type, with one sends it', async () => {
  let state = off;
  const { fake } = await renderWithStores(<RemoteAccessView />, {
    overrides: {
      'remote:get': async () => state,
      'remote:turn-on': async ({ publicUrl }) => (state = { ...on, publicUrl, waiting: [], connections: [] }),
    },
  });
  const toggle = await screen.findByRole('switch', { name: 'Remote access' });
  expect(checked(toggle)).toBe(false);
  expect(screen.getByText(/through a tunnel you run/)).toBeTruthy();
  await userEvent.click(toggle);
  expect(screen.getByRole('alert').textContent).toMatch(/Type your tunnel's public https address first/);
  expect(fake.calls.some((c) => c.channel === 'remote:turn-on')).toBe(false);

  // Enter in the field turns it on, as the switch does.
  await userEvent.type(screen.getByLabelText(/public address/), 'https://roam.example.ts.net{Enter}');
  expect(fake.calls.find((c) => c.channel === 'remote:turn-on')?.input).toEqual({
    publicUrl: 'https://roam.example.ts.net',
  });
  await waitFor(() => expect(checked(screen.getByRole('switch', { name: 'Remote access' }))).toBe(true));
  expect(screen.getByText('https://roam.example.ts.net')).toBeTruthy();
  expect(screen.getByText('http://127.0.0.1:41234')).toBeTruthy();
  expect(screen.getByText(/No sign-in is waiting/)).toBeTruthy();
});

it('a refused address is shown as the core says it, and the switch stays off', async () => {
  await renderWithStores(<RemoteAccessView />, {
    overrides: {
      'remote:turn-on': async () => {
        throw Object.assign(
          new Error(
            'The public URL must be https (claude.ai and ChatGPT reach only HTTPS servers), not http.',
          ),
          {
            code: 'VALIDATION',
          },
        );
      },
    },
  });
  await userEvent.type(await screen.findByLabelText(/public address/), 'http://x.example{Enter}');
  await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/must be https/));
  expect(checked(screen.getByRole('switch', { name: 'Remote access' }))).toBe(false);
});

it('on: a waiting sign-in shows who, unverified, where the answer goes and the code; Approve sends the choices', async () => {
  let state = on;
  const { fake } = await renderWithStores(<RemoteAccessView />, {
    overrides: {
      'remote:get': async () => state,
      'remote:approve': async () => (state = { ...on, waiting: [] }),
    },
  });
  const list = await screen.findByRole('list', { name: 'Sign-ins waiting' });
  const card = within(list).getByRole('listitem');
  expect(card.textContent).toContain('Claude asks to connect');
  expect(within(card).getByText('unverified')).toBeTruthy();
  expect(card.textContent).toContain("This name is the app's own claim");
  expect(within(card).getByText('claude.ai').className).toBe('remote-host');
  expect(within(card).getByText('KQ7-4MZ')).toBeTruthy();
  expect(card.textContent).toContain("Asks for Roam Companion's tools");
  // Nothing secret or internal: no id.
  expect(document.body.textContent).not.toContain('req12345');
  expect(document.body.textContent).not.toContain('conn0001');

  await userEvent.selectOptions(within(card).getByLabelText(/What its chats may do/), 'read-append');
  await userEvent.click(within(card).getByText(/^Toolsets:/));
  await userEvent.click(within(card).getByRole('checkbox', { name: /^ui:/ }));
  await userEvent.click(within(card).getByRole('button', { name: 'Approve Claude' }));
  expect(fake.calls.find((c) => c.channel === 'remote:approve')?.input).toEqual({
    id: 'req12345',
    level: 'read-append',
    toolsets: ['core', 'navigation', 'files', 'extensions'],
  });
  await waitFor(() => expect(screen.queryByRole('list', { name: 'Sign-ins waiting' })).toBeNull());
});

it('Approve with nothing changed sends no level and no toolsets (each graph’s own, the default sets); Deny sends the id', async () => {
  const { fake } = await renderWithStores(<RemoteAccessView />, {
    overrides: { 'remote:get': async () => on, 'remote:approve': async () => on },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Approve Claude' }));
  expect(fake.calls.find((c) => c.channel === 'remote:approve')?.input).toEqual({ id: 'req12345' });
  await userEvent.click(screen.getByRole('button', { name: 'Deny' }));
  expect(fake.calls.find((c) => c.channel === 'remote:deny')?.input).toEqual({ id: 'req12345' });
});

it('graphs: all ticked sends none (every graph); unticking one sends the rest; none ticked cannot approve', async () => {
  const graphs = [
    graphView('work-graph', { id: 'hosted:work-graph', nickname: 'Work' }),
    graphView('home-graph', { id: 'hosted:home-graph', nickname: 'Home' }),
  ];
  const { fake } = await renderWithStores(<RemoteAccessView />, {
    graphs,
    overrides: { 'remote:get': async () => on, 'remote:approve': async () => on },
  });
  const card = within(await screen.findByRole('list', { name: 'Sign-ins waiting' })).getByRole('listitem');
  const work = within(card).getByRole('checkbox', { name: /^Work/ });
  const home = within(card).getByRole('checkbox', { name: /^Home/ });
  expect([checked(work), checked(home)]).toEqual([true, true]);
  expect(card.textContent).toContain('Graphs its chats reach: all (also graphs you add later)');
  await userEvent.click(home);
  expect(card.textContent).toContain('Graphs its chats reach: Work');
  await userEvent.click(work);
  expect(card.textContent).toContain('none (choose at least one)');
  expect(within(card).getByRole('button', { name: 'Approve Claude' })).toHaveProperty('disabled', true);
  await userEvent.click(work);
  await userEvent.click(within(card).getByRole('button', { name: 'Approve Claude' }));
  expect(fake.calls.find((c) => c.channel === 'remote:approve')?.input).toEqual({
    id: 'req12345',
    graphs: ['hosted:work-graph'],
  });
});

it('a connection limited to some graphs names them; one without a limit says every graph', async () => {
  const limited = { ...on.connections[0]!, id: 'conn0002', clientName: 'Claude', graphs: ['Work'] };
  await renderWithStores(<RemoteAccessView />, {
    overrides: { 'remote:get': async () => ({ ...on, connections: [...on.connections, limited] }) },
  });
  const rows = within(await screen.findByRole('list', { name: 'Remote connections' })).getAllByRole(
    'listitem',
  );
  expect(rows[0]!.textContent).toContain('Read only · core · every graph');
  expect(rows[1]!.textContent).toContain('Read only · core · only Work');
});

it('a sign-in arriving while the screen is open appears; one answered elsewhere goes', async () => {
  const { emit } = await renderWithStores(<RemoteAccessView />, {
    overrides: { 'remote:get': async () => ({ ...on, waiting: [] }) },
  });
  await screen.findByText(/No sign-in is waiting/);
  emit('remote:changed', on);
  expect(await screen.findByText('KQ7-4MZ')).toBeTruthy();
  emit('remote:changed', { ...on, waiting: [] });
  await waitFor(() => expect(screen.queryByText('KQ7-4MZ')).toBeNull());
});

it('connections: client, where, level, toolsets and last use; Revoke is one click', async () => {
  let state = on;
  const { fake } = await renderWithStores(<RemoteAccessView />, {
    overrides: {
      'remote:get': async () => state,
      'remote:revoke': async () => (state = { ...on, connections: [] }),
    },
  });
  const list = await screen.findByRole('list', { name: 'Remote connections' });
  const row = within(list).getByRole('listitem');
  expect(row.textContent).toContain('ChatGPT');
  expect(row.textContent).toContain('Signed in for chatgpt.com · at most Read only · core');
  expect(row.textContent).toMatch(/Last used .*2026/);
  await userEvent.click(within(row).getByRole('button', { name: 'Revoke ChatGPT' }));
  expect(fake.calls.find((c) => c.channel === 'remote:revoke')?.input).toEqual({ id: 'conn0001' });
  await waitFor(() => expect(screen.queryByRole('list', { name: 'Remote connections' })).toBeNull());
});

it('off asks first, saying what ends; Cancel keeps it on, Turn off ends it', async () => {
  let state = on;
  const { fake } = await renderWithStores(<RemoteAccessView />, {
    overrides: {
      'remote:get': async () => state,
      'remote:turn-off': async () => (state = { ...off, publicUrl: on.publicUrl, localPort: 41234 }),
    },
  });
  await userEvent.click(await screen.findByRole('switch', { name: 'Remote access' }));
  const dialog = screen.getByRole('alertdialog');
  expect(dialog.textContent).toContain('The connection ends, and any sign-in waiting here is refused.');
  expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(fake.calls.some((c) => c.channel === 'remote:turn-off')).toBe(false);
  await userEvent.click(screen.getByRole('switch', { name: 'Remote access' }));
  await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Turn off' }));
  await waitFor(() => expect(checked(screen.getByRole('switch', { name: 'Remote access' }))).toBe(false));
  // The address is kept in the field, to turn it on again.
  expect(screen.getByLabelText(/public address/)).toHaveProperty('value', 'https://roam.example.ts.net');
});

it('a failed load says so with Try again', async () => {
  let fail = true;
  await renderWithStores(<RemoteAccessView />, {
    overrides: {
      'remote:get': async () => {
        if (fail) throw Object.assign(new Error('The data folder cannot be read.'), { code: 'INTERNAL' });
        return off;
      },
    },
  });
  expect((await screen.findByRole('alert')).textContent).toContain('Could not load remote access');
  fail = false;
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('switch', { name: 'Remote access' })).toBeTruthy();
});

it('while on, every screen says so with what waits; Show opens Settings at Remote access', async () => {
  const { emit } = await renderWithStores(<App />, { overrides: { 'remote:get': async () => off } });
  await screen.findByRole('tab', { name: 'Graphs', selected: true });
  expect(screen.queryByRole('button', { name: 'Show remote access' })).toBeNull();
  emit('remote:changed', on);
  const indicator = (await screen.findByRole('button', { name: 'Show remote access' })).parentElement!;
  expect(indicator.textContent).toBe(
    'Remote access on at roam.example.ts.net · 1 connection · 1 sign-in waits for youShow',
  );
  await userEvent.click(within(indicator).getByRole('button', { name: 'Show remote access' }));
  expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
  await waitFor(() =>
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Remote access' })),
  );
  emit('remote:changed', off);
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Show remote access' })).toBeNull());
});
