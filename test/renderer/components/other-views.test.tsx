// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src-renderer/components/app.tsx';
import { BlockedView } from '../../../src-renderer/components/graphs/blocked-view.tsx';
import { ClientsView } from '../../../src-renderer/components/clients/clients-view.tsx';
import { SettingsView } from '../../../src-renderer/components/settings/settings-view.tsx';
import { StatusBar } from '../../../src-renderer/components/status-bar.tsx';
import type { BlockedGraphView, ClientView } from '../../../src-shared/ipc-contract.ts';
import { DEFAULT_TOOLSETS, toolCount } from '../../../src-shared/toolsets.ts';
import { graphView } from '../fake-api.ts';
import { renderWithStores } from '../render-app.tsx';

afterEach(cleanup);

/** The last request that did something: the lists re-read after a change (clients, keys) left out. */
const lastAction = (calls: ReadonlyArray<{ channel: string; input: unknown }>) =>
  calls.filter((call) => !call.channel.endsWith(':list')).at(-1);

const blockedWork: BlockedGraphView = {
  graphId: 'hosted:work',
  name: 'work',
  nickname: 'Work',
  type: 'hosted',
  blockedAt: Date.UTC(2026, 10, 22),
  howToUnblock: 'In Roam Desktop open Settings > Local API and remove Roam Companion from Never Allow.',
};

describe('Blocked view', () => {
  it('is empty until a never-allow arrives, then explains how to unblock and retries', async () => {
    const onRetried = vi.fn();
    const { fake, emit } = await renderWithStores(<BlockedView onRetried={onRetried} />);
    expect(screen.getByText('Nothing is blocked')).toBeTruthy();
    emit('blocked:changed', [blockedWork]);
    // Named as in the Graphs tab (the nickname), with the graph's name beside it.
    const row = screen.getByRole('listitem', { name: 'Work' });
    expect(row.textContent).toContain('Graph work · Blocked');
    expect(row.textContent).toContain('remove Roam Companion from Never Allow');
    await userEvent.click(within(row).getByRole('button', { name: 'Retry Work' }));
    expect(fake.calls.at(-1)).toEqual({ channel: 'blocked:retry', input: { id: 'hosted:work' } });
    await waitFor(() => expect(onRetried).toHaveBeenCalledOnce());
  });

  it('shows why a retry failed', async () => {
    await renderWithStores(<BlockedView onRetried={() => undefined} />, {
      overrides: {
        'blocked:list': async () => [blockedWork],
        'blocked:retry': async () => {
          throw new Error('Roam still blocks work. Unblock it in Roam settings first.');
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Retry Work' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Unblock it in Roam settings first');
  });
});

describe('Clients view', () => {
  it('previews the config change before installing, and cancels without writing', async () => {
    const { fake } = await renderWithStores(<ClientsView />);
    const row = screen.getByRole('listitem', { name: 'Claude Desktop' });
    expect(row.textContent).toContain('Not installed');
    await userEvent.click(within(row).getByRole('button', { name: 'Install into Claude Desktop…' }));
    const changes = within(row).getByLabelText('Changes');
    expect(within(changes).getByLabelText('removed: {}').className).toBe('diff-line removed');
    expect(within(changes).getByLabelText('added: {"mcpServers":{"roam":{}}}').className).toBe(
      'diff-line added',
    );
    await userEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.channel === 'clients:install')).toBe(false);

    await userEvent.click(within(row).getByRole('button', { name: 'Install into Claude Desktop…' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Confirm install' }));
    expect(lastAction(fake.calls)).toEqual({ channel: 'clients:install', input: { id: 'claude-desktop' } });
    await waitFor(() => expect(row.textContent).toContain('Installed'));
    expect(within(row).getByRole('button', { name: 'Uninstall from Claude Desktop…' })).toBeTruthy();
  });

  it('shows the preview as a unified diff: removed before added, and only what changed in a line marked', async () => {
    const diff = [
      '  {',
      '    "mcpServers": {',
      '-     "github": { "command": "docker" }',
      '+     "github": { "command": "docker" },',
      '+     "roam-companion": {',
      '+       "command": "node"',
      '+     }',
      '    }',
      '  }',
    ].join('\n');
    await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:preview': async (input) => ({
          id: input.id,
          configPath: '/h/.cursor/mcp.json',
          action: input.action,
          before: '',
          after: '',
          diff,
        }),
      },
    });
    const row = screen.getByRole('listitem', { name: 'Claude Desktop' });
    await userEvent.click(within(row).getByRole('button', { name: 'Install into Claude Desktop…' }));
    const lines = [...within(row).getByLabelText('Changes').querySelectorAll('.diff-line')];
    expect(lines.map((l) => l.className)).toEqual([
      'diff-line',
      'diff-line',
      'diff-line removed',
      'diff-line added',
      'diff-line added',
      'diff-line added',
      'diff-line added',
      'diff-line',
      'diff-line',
    ]);
    // The github server is untouched: its old line has nothing marked, its new one only the comma.
    expect(lines[2]!.querySelector('mark')).toBeNull();
    expect([...lines[3]!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual([',']);
    // A new line is new as a whole: nothing inside it is singled out.
    expect(lines[4]!.querySelector('mark')).toBeNull();
  });

  it('shows the Claude Code command to copy and a stale client to update', async () => {
    const user = userEvent.setup();
    await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:list': async () => [
          {
            id: 'claude-code',
            name: 'Claude Code',
            state: 'not-installed',
            command: 'claude mcp add roam -- node x',
          },
          { id: 'cursor', name: 'Cursor', configPath: '/h/.cursor/mcp.json', state: 'stale' },
        ],
      },
    });
    await user.click(screen.getByRole('button', { name: 'Copy the Claude Code command' }));
    expect(await navigator.clipboard.readText()).toBe('claude mcp add roam -- node x');
    const cursor = screen.getByRole('listitem', { name: 'Cursor' });
    expect(cursor.textContent).toContain('Needs update');
    expect(within(cursor).getByRole('button', { name: 'Update Cursor…' })).toBeTruthy();
  });

  it('over HTTP, copies the Claude Code command through main (never this page’s clipboard) and says what failed', async () => {
    const user = userEvent.setup();
    await navigator.clipboard.writeText('before');
    let fail = false;
    const { fake } = await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:list': async () => [
          {
            id: 'claude-code',
            name: 'Claude Code',
            state: 'not-installed',
            command:
              "claude mcp add --transport http roam-companion URL --header 'Authorization: Bearer <key>'",
            commandKey: 'claude-code',
          },
        ],
        'clients:copy-command': async () => {
          if (fail)
            throw Object.assign(new Error('Could not write the clipboard. Click Copy again.'), {
              code: 'INTERNAL',
            });
          return { copied: true, keyName: 'claude-code' };
        },
      },
    });
    const row = screen.getByRole('listitem', { name: 'Claude Code' });
    expect(row.textContent).toContain(
      'Copying makes a new key and keeps it in a file only you can read, which the command names; a Claude Code set up with it picks up the new key at its next connection.',
    );
    await user.click(within(row).getByRole('button', { name: 'Copy the Claude Code command' }));
    expect(fake.calls.filter((c) => c.channel === 'clients:copy-command')).toEqual([
      { channel: 'clients:copy-command', input: { id: 'claude-code' } },
    ]);
    expect((await within(row).findByRole('status')).textContent).toBe('Copied, with a new key (claude-code)');
    expect(await navigator.clipboard.readText()).toBe('before');

    fail = true;
    await user.click(within(row).getByRole('button', { name: 'Copy the Claude Code command' }));
    expect((await within(row).findByRole('alert')).textContent).toContain('Could not write the clipboard.');
    expect(within(row).queryByRole('status')).toBeNull();
  });

  it('installs with the chosen toolsets, and offers to apply a changed choice to an installed client', async () => {
    const { fake } = await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:list': async () => [
          { id: 'claude-desktop', name: 'Claude Desktop', configPath: '/h/c.json', state: 'not-installed' },
          {
            id: 'cursor',
            name: 'Cursor',
            configPath: '/h/.cursor/mcp.json',
            state: 'installed',
            toolsets: ['ui'],
          },
        ],
      },
    });
    const desktop = screen.getByRole('listitem', { name: 'Claude Desktop' });
    const desktopSets = within(desktop).getByRole('group', { name: 'Toolsets for Claude Desktop' });
    // The server's default: every set but developer.
    for (const set of ['core', 'navigation', 'ui', 'files', 'extensions'])
      expect(within(desktopSets).getByRole('checkbox', { name: new RegExp(`^${set}`) })).toHaveProperty(
        'checked',
        true,
      );
    expect(within(desktopSets).getByRole('checkbox', { name: /^developer/ })).toHaveProperty(
      'checked',
      false,
    );
    expect(within(desktopSets).getByRole('status').textContent).toBe(
      `Claude Desktop gets ${toolCount(DEFAULT_TOOLSETS) - 1} tools (${toolCount(DEFAULT_TOOLSETS)} where Roam Desktop offers semantic search).`,
    );
    for (const set of ['ui', 'files', 'extensions'])
      await userEvent.click(within(desktopSets).getByRole('checkbox', { name: new RegExp(`^${set}`) }));
    expect(within(desktopSets).getByRole('status').textContent).toBe(
      `Claude Desktop gets 38 tools (39 where Roam Desktop offers semantic search).`,
    );
    await userEvent.click(within(desktop).getByRole('button', { name: 'Install into Claude Desktop…' }));
    expect(lastAction(fake.calls)).toEqual({
      channel: 'clients:preview',
      input: { id: 'claude-desktop', action: 'install', toolsets: ['core', 'navigation'] },
    });
    await userEvent.click(within(desktop).getByRole('button', { name: 'Confirm install' }));
    expect(lastAction(fake.calls)).toEqual({
      channel: 'clients:install',
      input: { id: 'claude-desktop', toolsets: ['core', 'navigation'] },
    });

    const cursor = screen.getByRole('listitem', { name: 'Cursor' });
    const cursorSets = within(cursor).getByRole('group', { name: 'Toolsets for Cursor' });
    expect(within(cursorSets).getByRole('checkbox', { name: /^ui/ })).toHaveProperty('checked', true);
    // The last chosen set cannot be unchecked: a client always gets some tools.
    expect(within(cursorSets).getByRole('checkbox', { name: /^ui/ })).toHaveProperty('disabled', true);
    expect(within(cursorSets).getByRole('checkbox', { name: /^core/ })).toHaveProperty('checked', false);
    expect(within(cursor).queryByRole('button', { name: /Apply the toolsets/ })).toBeNull();
    await userEvent.click(within(cursorSets).getByRole('checkbox', { name: /^core/ }));
    await userEvent.click(within(cursor).getByRole('button', { name: 'Apply the toolsets to Cursor…' }));
    await userEvent.click(within(cursor).getByRole('button', { name: 'Confirm install' }));
    expect(lastAction(fake.calls)).toEqual({
      channel: 'clients:install',
      input: { id: 'cursor', toolsets: ['core', 'ui'] },
    });
  });

  it('a new Cursor entry starts from the sets that fit its tool cap, with the count beside the choice', async () => {
    const { fake } = await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:list': async () => [
          { id: 'cursor', name: 'Cursor', configPath: '/h/.cursor/mcp.json', state: 'not-installed' },
        ],
      },
    });
    const cursor = screen.getByRole('listitem', { name: 'Cursor' });
    const sets = within(cursor).getByRole('group', { name: 'Toolsets for Cursor' });
    expect(within(sets).getByRole('checkbox', { name: /^navigation.*\(10 tools\)$/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(sets).getByRole('checkbox', { name: /^ui/ })).toHaveProperty('checked', false);
    expect(within(sets).getByRole('status').textContent).toBe(
      `Cursor gets 38 tools (39 where Roam Desktop offers semantic search). Cursor works poorly past about 40 tools across all its servers.`,
    );
    await userEvent.click(within(sets).getByRole('checkbox', { name: /^ui/ }));
    expect(within(sets).getByRole('status').textContent).toMatch(
      new RegExp(`gets ${toolCount(['core', 'navigation', 'ui']) - 1} tools .*: choose fewer sets\\.$`),
    );
    await userEvent.click(within(sets).getByRole('checkbox', { name: /^ui/ }));
    // Untouched, the install still writes the sets that fit.
    await userEvent.click(within(cursor).getByRole('button', { name: 'Install into Cursor…' }));
    await userEvent.click(within(cursor).getByRole('button', { name: 'Confirm install' }));
    expect(lastAction(fake.calls)).toEqual({
      channel: 'clients:install',
      input: { id: 'cursor', toolsets: ['core', 'navigation'] },
    });
  });

  it('over HTTP shows the key’s toolsets folded, and applies a new choice to the key without a preview', async () => {
    const cursorOverHttp: ClientView = {
      id: 'cursor',
      name: 'Cursor',
      configPath: '/h/.cursor/mcp.json',
      state: 'installed',
      transport: 'http',
      toolsets: ['core', 'navigation'],
    };
    const { fake } = await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:list': async () => [
          cursorOverHttp,
          {
            id: 'vscode',
            name: 'VS Code',
            configPath: '/h/Code/User/mcp.json',
            state: 'installed',
            transport: 'stdio',
            canSwitchToHttp: true,
            message: 'Connected over stdio: each chat starts its own roam-mcp.',
          },
        ],
        'clients:set-toolsets': async (input) => ({ ...cursorOverHttp, toolsets: input.toolsets }),
      },
    });
    const cursor = screen.getByRole('listitem', { name: 'Cursor' });
    expect(cursor.textContent).toContain("Over HTTP: the tray's server, with a key of its own.");
    // Folded to one line: the key's sets and what its chats are served.
    const fold = cursor.querySelector('details')!;
    expect(fold.open).toBe(false);
    expect(fold.querySelector('summary')!.textContent).toBe('Tools core, navigation · 38 tools');
    // The key's choice is the row's: nothing to apply right after the install.
    expect(within(cursor).queryByRole('button', { name: /Apply the toolsets/ })).toBeNull();
    await userEvent.click(fold.querySelector('summary')!);
    await userEvent.click(within(cursor).getByRole('checkbox', { name: /^ui/ }));
    await userEvent.click(within(cursor).getByRole('button', { name: 'Apply the toolsets to Cursor' }));
    expect(lastAction(fake.calls)).toEqual({
      channel: 'clients:set-toolsets',
      input: { id: 'cursor', toolsets: ['core', 'navigation', 'ui'] },
    });
    expect(fake.calls.map((c) => c.channel)).not.toContain('clients:preview');
    const done = await screen.findByRole('status', { name: 'Cursor: done' });
    expect(done.textContent).toContain(
      "Cursor's key now gives core, navigation, ui: 44 tools (45 where Roam Desktop offers semantic search).",
    );
    expect(done.textContent).toContain("Cursor's config was not changed.");
    expect(document.activeElement).toBe(within(done).getByRole('button', { name: 'OK' }));

    const vscode = screen.getByRole('listitem', { name: 'VS Code' });
    expect(vscode.textContent).toContain('Over stdio: a roam-mcp of its own for each chat.');
    expect(within(vscode).getByText('Installed')).toBeTruthy();
    await userEvent.click(within(vscode).getByRole('button', { name: 'Switch VS Code to HTTP…' }));
    expect(within(vscode).getByRole('dialog').textContent).toContain('Changes the Roam Companion entry in');
  });

  it('says how a client without our entry will connect once installed', async () => {
    await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:list': async () => [
          {
            id: 'cursor',
            name: 'Cursor',
            configPath: '/h/.cursor/mcp.json',
            state: 'not-installed',
            transport: 'http',
          },
        ],
      },
    });
    expect(screen.getByRole('listitem', { name: 'Cursor' }).textContent).toContain(
      "Once installed, over HTTP: the tray's server, with a key of its own.",
    );
  });

  it('shows an install failure with what to do next', async () => {
    await renderWithStores(<ClientsView />, {
      overrides: {
        'clients:preview': async () => {
          throw new Error('claude_desktop_config.json is not valid JSON. Fix or delete it, then try again.');
        },
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Install into Claude Desktop…' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Fix or delete it');
  });
});

describe('Status bar and settings', () => {
  it('shows Roam, port and sessions, and offers to open Roam when it is not running', async () => {
    const { fake, emit } = await renderWithStores(<StatusBar />);
    const bar = screen.getByRole('contentinfo', { name: 'Status' });
    expect(bar.textContent).toContain('Roam Desktop running · port 3333');
    expect(bar.textContent).toContain('2 MCP sessions connected');
    emit('status:changed', {
      roam: { running: false, port: 3333, checkedAt: 1 },
      mcpSessions: 1,
      storage: { backend: 'basic_text', warning: 'Tokens are stored with weak protection.' },
    });
    expect(bar.textContent).toContain('Roam Desktop is not running');
    expect(bar.textContent).toContain('1 MCP session connected');
    expect(bar.textContent).toContain('weak protection');
    await userEvent.click(screen.getByRole('button', { name: 'Open Roam Desktop' }));
    expect(fake.calls.at(-1)?.channel).toBe('roam:open');
  });

  it('says how the tray’s HTTP server is, as it changes, why it is down and when it tries again, with Try now', async () => {
    const { emit, fake } = await renderWithStores(<StatusBar />);
    const bar = screen.getByRole('contentinfo', { name: 'Status' });
    expect(bar.textContent).not.toContain('HTTP');
    const base = { roam: { running: true, port: 3333, checkedAt: 1 }, mcpSessions: 0 };
    emit('status:changed', { ...base, http: { state: 'serving', url: 'http://127.0.0.1:39017/mcp' } });
    expect(bar.textContent).toContain('HTTP: serving at 127.0.0.1:39017');
    expect(screen.queryByRole('button', { name: 'Try now' })).toBeNull();
    const retryAt = Date.now() + 30_000;
    emit('status:changed', {
      ...base,
      http: { state: 'restarting', why: 'stopped unexpectedly', retryAt },
    });
    expect(bar.textContent).toContain(
      `HTTP server stopped unexpectedly; next try at ${new Date(retryAt).toLocaleTimeString()}`,
    );
    expect(bar.textContent).not.toContain('serving at');
    await userEvent.click(screen.getByRole('button', { name: 'Try now' }));
    expect(fake.calls.at(-1)?.channel).toBe('http:retry');
    emit('status:changed', { ...base, http: { state: 'starting' } });
    expect(bar.textContent).toContain('HTTP server starting…');
    expect(screen.queryByRole('button', { name: 'Try now' })).toBeNull();
  });

  it('saves settings', async () => {
    const { fake } = await renderWithStores(<SettingsView />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Launch at login' }));
    expect(fake.calls.at(-1)).toEqual({ channel: 'settings:set', input: { launchAtLogin: true } });
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Launch at login' })).toHaveProperty('checked', true),
    );
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Default access level for new tokens' }),
      'full',
    );
    expect(fake.calls.at(-1)).toEqual({ channel: 'settings:set', input: { defaultAccessLevel: 'full' } });
  });

  it('asks before changes that take much away by default; every change or never for graphs without their own', async () => {
    const { fake } = await renderWithStores(<SettingsView />);
    const group = () => screen.getByRole('group', { name: 'Ask me before' });
    const choice = (name: RegExp) => within(group()).getByRole('radio', { name });
    expect(choice(/^Changes that take much away/)).toHaveProperty('checked', true);
    expect(group().textContent).toContain('For every graph without a choice of its own');
    await userEvent.click(choice(/^Every change/));
    expect(fake.calls.at(-1)).toEqual({ channel: 'settings:set', input: { confirm: 'every-write' } });
    await waitFor(() => expect(choice(/^Every change/)).toHaveProperty('checked', true));
    expect(await screen.findByText('Ask me before saved.')).toBeTruthy();
    await userEvent.click(choice(/^Never/));
    expect(fake.calls.at(-1)).toEqual({ channel: 'settings:set', input: { confirm: 'never' } });
  });

  it('copies the diagnostics through main and says what was found', async () => {
    const { fake } = await renderWithStores(<SettingsView />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy diagnostics' }));
    expect(fake.calls.at(-1)).toEqual({ channel: 'diagnostics:copy', input: undefined });
    expect(
      await screen.findByText('Diagnostics copied (0 problems, 1 warning): paste them into your bug report.'),
    ).toHaveProperty('role', 'status');
  });
});

describe('App', () => {
  it('switches tabs with the arrow keys and follows deep links to a graph', async () => {
    const { emit } = await renderWithStores(<App />, { graphs: [graphView('work')] });
    const graphsTab = screen.getByRole('tab', { name: 'Graphs' });
    expect(graphsTab.getAttribute('aria-selected')).toBe('true');
    graphsTab.focus();
    await userEvent.keyboard('{ArrowRight}');
    const blockedTab = screen.getByRole('tab', { name: 'Blocked' });
    expect(blockedTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(blockedTab);
    expect(screen.getByRole('tabpanel', { name: 'Blocked' }).textContent).toContain('Nothing is blocked');

    emit('blocked:changed', [blockedWork]);
    expect(screen.getByRole('tab', { name: 'Blocked (1)' })).toBeTruthy();
    emit('app:navigate', { graphId: 'hosted:work' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('listitem', { name: 'work' })));
  });
});
