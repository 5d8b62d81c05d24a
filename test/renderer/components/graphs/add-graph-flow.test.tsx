// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphsView } from '../../../../src-renderer/components/graphs/graphs-view.tsx';
import { graphView } from '../../fake-api.ts';
import { renderWithStores } from '../../render-app.tsx';

afterEach(cleanup);
const noop = () => undefined;

describe('Add graph flow', () => {
  it('picks a graph Roam reports, validates the nickname live, adds it and requests its token', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      graphs: [graphView('work', { nickname: 'Team' })],
      overrides: {
        'graphs:available': async () => [
          { name: 'work', type: 'hosted' },
          { name: 'research', type: 'hosted' },
          { name: 'diary', type: 'offline' },
        ],
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add graph' }));
    const form = screen.getByRole('form', { name: 'Add a graph' });
    const graph = within(form).getByRole('combobox', { name: 'Graph' });
    // Already-configured graphs are not offered again.
    await waitFor(() =>
      expect(
        within(graph)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose a graph…', 'research (hosted)', 'diary (offline)', 'Type a name…']),
    );
    await userEvent.selectOptions(graph, 'offline:diary');
    const nickname = within(form).getByRole('textbox', { name: 'Nickname' });
    await userEvent.type(nickname, 'team');
    expect(
      await within(form).findByText("The nickname 'team' is already used. Choose another."),
    ).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Add and request token' })).toHaveProperty(
      'disabled',
      true,
    );

    // The graph's name goes along: a nickname may not be another graph's name either.
    expect(fake.calls.filter((c) => c.channel === 'graphs:check-nickname').at(-1)?.input).toEqual({
      nickname: 'team',
      name: 'diary',
    });

    await userEvent.clear(nickname);
    await userEvent.type(nickname, 'journal');
    await within(form).findByText('Nickname is free.');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Description' }), 'My diary');
    await userEvent.click(within(form).getByRole('radio', { name: /Full/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Add and request token' }));

    const panel = await screen.findByRole('region', { name: 'Token request for journal' });
    expect(panel.textContent).toContain('Approve the dialog in Roam Desktop');
    expect(within(panel).getByLabelText(/^(5:00|4:59) left$/)).toBeTruthy();
    // The form re-checks its nickname whenever the list changes: those checks do not matter here.
    const calls = fake.calls.filter((c) => c.channel !== 'graphs:check-nickname');
    expect(calls.slice(-2).map((c) => c.channel)).toEqual(['graphs:add', 'tokens:request']);
    expect(calls.at(-2)?.input).toEqual({
      name: 'diary',
      type: 'offline',
      nickname: 'journal',
      description: 'My diary',
      accessLevel: 'full',
    });
    // The token request serves the level the graph was just added with.
    expect(calls.at(-1)?.input).toEqual({ id: 'offline:diary' });
    expect(screen.getByRole('listitem', { name: 'journal' })).toBeTruthy();
  });

  it('lets the user type a name when Roam lists nothing, with the default access level preselected', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: {
        'graphs:available': async () => {
          throw new Error(
            'Roam Desktop is not running (nothing answers on port 3333). Open Roam Desktop, then try again.',
          );
        },
        'settings:get': async () => ({ launchAtLogin: false, defaultAccessLevel: 'read-append' }),
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add graph' }));
    const form = screen.getByRole('form', { name: 'Add a graph' });
    // The reason as a sentence of its own: no brackets inside brackets.
    expect((await within(form).findByText(/^Roam did not list your graphs: /)).textContent).toBe(
      "Roam did not list your graphs: Roam Desktop is not running (nothing answers on port 3333). Open Roam Desktop, then try again. Or type the graph's name.",
    );
    expect(within(form).getByRole('radio', { name: /Read \+ append/ })).toHaveProperty('checked', true);
    await userEvent.click(within(form).getByRole('button', { name: 'Add and request token' }));
    // The error asks for the missing name, at the name field, which gets the focus.
    const name = within(form).getByRole('textbox', { name: 'Graph name' });
    expect(within(form).getByRole('alert').textContent).toMatch(/^Enter the graph’s name/);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(fake.calls.some((c) => c.channel === 'graphs:add')).toBe(false);

    await userEvent.type(name, 'typed');
    expect(within(form).queryByRole('alert')).toBeNull();
    // An empty nickname is fine, and the form says what it means.
    await within(form).findByText("Optional. Left empty, agents call this graph by its name, 'typed'.");
    await userEvent.click(within(form).getByRole('button', { name: 'Add and request token' }));
    await screen.findByRole('region', { name: 'Token request for typed' });
    expect(fake.calls.find((c) => c.channel === 'graphs:add')?.input).toMatchObject({
      name: 'typed',
      type: 'hosted',
      accessLevel: 'read-append',
    });
  });

  it('adds a public graph by name: hosted and read-only, with no level to choose', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: { 'graphs:available': async () => [] },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add graph' }));
    const form = screen.getByRole('form', { name: 'Add a graph' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Graph name' }), 'help');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Type' }), 'offline');
    await userEvent.click(within(form).getByRole('checkbox', { name: /Public graph/ }));
    expect(within(form).getByRole('combobox', { name: 'Type' })).toHaveProperty('value', 'hosted');
    expect(within(form).queryByRole('radio', { name: /Full/ })).toBeNull();
    expect(within(form).getByText(/Public graphs are read-only/)).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Add and request token' }));
    await screen.findByRole('region', { name: 'Token request for help' });
    expect(fake.calls.find((c) => c.channel === 'graphs:add')?.input).toMatchObject({
      name: 'help',
      type: 'hosted',
      accessLevel: 'read-only',
    });
  });

  it('reports a missing graph at the graph list, then a missing name at the name field once "Type a name…" is chosen', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: { 'graphs:available': async () => [{ name: 'research', type: 'hosted' }] },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add graph' }));
    const form = screen.getByRole('form', { name: 'Add a graph' });
    const graph = within(form).getByRole('combobox', { name: 'Graph' });
    await within(graph).findByRole('option', { name: 'research (hosted)' });
    await userEvent.click(within(form).getByRole('button', { name: 'Add and request token' }));
    expect(within(form).getByRole('alert').textContent).toBe(
      'Choose a graph from the list, or “Type a name…” to enter one.',
    );
    expect(graph.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(graph);

    await userEvent.selectOptions(graph, 'Type a name…');
    const name = within(form).getByRole('textbox', { name: 'Graph name' });
    expect(within(form).getByRole('alert').textContent).toMatch(/^Enter the graph’s name/);
    expect(document.activeElement).toBe(name);
    expect(fake.calls.some((c) => c.channel === 'graphs:add')).toBe(false);
  });

  it('keeps the form open with the core error when adding fails', async () => {
    await renderWithStores(<GraphsView onShowBlocked={noop} />, {
      overrides: {
        'graphs:add': async () => {
          throw Object.assign(new Error("Graph 'x' is already configured. Edit it instead."), {
            code: 'VALIDATION',
          });
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add graph' }));
    const form = screen.getByRole('form', { name: 'Add a graph' });
    await userEvent.type(await within(form).findByRole('textbox', { name: 'Graph name' }), 'x');
    await within(form).findByText(/^Optional\. Left empty/);
    await userEvent.click(within(form).getByRole('button', { name: 'Add and request token' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      "Graph 'x' is already configured. Edit it instead.",
    );
  });

  it('refuses a nickname with an invisible character or mixed alphabets at once, before asking the core', async () => {
    const { fake } = await renderWithStores(<GraphsView onShowBlocked={noop} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add graph' }));
    const form = screen.getByRole('form', { name: 'Add a graph' });
    await userEvent.type(await within(form).findByRole('textbox', { name: 'Graph name' }), 'x');
    const nickname = within(form).getByRole('textbox', { name: 'Nickname' });
    const submit = within(form).getByRole('button', { name: 'Add and request token' });
    await userEvent.type(nickname, 'Wo\u200Brk');
    expect(
      (await within(form).findByText(/invisible or control character \(U\+200B\)/)).textContent,
    ).toContain("'Wo<U+200B>rk'");
    expect(submit).toHaveProperty('disabled', true);
    await userEvent.clear(nickname);
    await userEvent.type(nickname, 'W\u043Erk'); // Cyrillic о
    expect(await within(form).findByText(/mixes Latin and Cyrillic letters/)).toBeTruthy();
    expect(submit).toHaveProperty('disabled', true);
    const asked = fake.calls.filter((c) => c.channel === 'graphs:check-nickname').map((c) => c.input);
    expect(JSON.stringify(asked)).not.toMatch(/\u200B|\u043E/u);
  });
});
