/**
 * The tray UI end to end: the built renderer in Debian's Chromium, talking over the HTTP bridge to
 * the real tray core, which talks to the real emulator over HTTP. The test plays the user in Roam
 * (approve, downgrade, reject, never allow) through the emulator. Also writes the screenshots.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './screenshots.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Preview } from '../../src-main/preview/server.ts';
import { LOCAL_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';
import { eventChannels } from '../../src-shared/constants.ts';
import type { Emulator } from '../emulator/types.ts';
import { poll } from './poll.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

let home: string;
let emulator: Emulator;
let preview: Preview;
let page: Page;
let tray: TrayWorld | undefined;
/** Uncaught errors in the page (a crashed view leaves an empty window): none, checked at the end. */
const pageErrors: string[] = [];
/** Every payload that crossed the bridge: /ipc responses and core events. */
const bridgePayloads: string[] = [];

beforeAll(async () => {
  tray = await startTrayWorld({
    prefix: 'tray-ui-',
    started: (core) => {
      for (const channel of eventChannels)
        core.core.on(channel, (p) => bridgePayloads.push(JSON.stringify(p)));
    },
    clipboard: true,
    beforeLoad: (opened) => {
      opened.on('pageerror', (error) => pageErrors.push(error.message));
      opened.on('response', (response) => {
        if (response.url().includes('/ipc/'))
          void response.text().then(
            (t) => bridgePayloads.push(t),
            () => {},
          );
      });
    },
  });
  ({ home, emulator, preview, page } = tray);
});

afterAll(async () => {
  await tray?.close();
});

async function contains(locator: Locator, text: string | RegExp): Promise<void> {
  if (typeof text === 'string') await poll(() => locator.innerText()).toContain(text);
  else await poll(() => locator.innerText()).toMatch(text);
}
const isSelected = (locator: Locator) => poll(() => locator.getAttribute('aria-selected')).toBe('true');
const graphRow = (nickname: string) => page.getByRole('listitem', { name: nickname, exact: true });
const requestPanel = (nickname: string) =>
  page.getByRole('region', { name: `Token request for ${nickname}` });
const tab = (name: string | RegExp) => page.getByRole('tab', { name });

/**
 * Selects every tab in turn at the tray's own width and reads, for each, the header's height and
 * how many lines each tab's label takes: one line each, and the header never moves.
 */
async function tabBarLayouts(): Promise<Array<{ selected: string; headerHeight: number; lines: number[] }>> {
  await page.setViewportSize({ width: 420, height: 600 });
  const layouts = [];
  for (const name of await page.getByRole('tab').allInnerTexts()) {
    await tab(name).click();
    await isSelected(tab(name));
    layouts.push(
      await page.evaluate((selected) => {
        const lines = [...document.querySelectorAll('[role="tab"]')].map((element) => {
          const tops = new Set<number>();
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let text = walker.nextNode(); text; text = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(text);
            for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
          }
          return tops.size;
        });
        const nav = document.querySelector('[role="tablist"]')!;
        const clipped = nav.scrollWidth > nav.clientWidth ? 1 : 0;
        return {
          selected,
          headerHeight: document.querySelector('header')!.offsetHeight,
          lines: [...lines, clipped],
        };
      }, name),
    );
  }
  await tab('Graphs').click();
  return layouts;
}
function expectOneLineWithoutJump(layouts: Awaited<ReturnType<typeof tabBarLayouts>>): void {
  const first = layouts[0]!;
  for (const layout of layouts) {
    // Every label on one line, none clipped off the bar (the last entry), the header as tall as before.
    expect(layout).toEqual({ ...first, selected: layout.selected });
    expect(layout.lines).toEqual([...Array<number>(layout.lines.length - 1).fill(1), 0]);
  }
}

async function addGraph(options: { graph: string; nickname?: string; level: RegExp }): Promise<void> {
  await page.getByRole('button', { name: 'Add graph' }).click();
  const form = page.getByRole('form', { name: 'Add a graph' });
  await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: options.graph });
  if (options.nickname) {
    await form.getByRole('textbox', { name: 'Nickname' }).fill(options.nickname);
    await form.getByText('Nickname is free.').waitFor();
  } else await form.getByText(/^Optional\. Left empty, agents call this graph by its name/).waitFor();
  await form.getByRole('radio', { name: options.level }).check();
  await form.getByRole('button', { name: 'Add and request token' }).click();
}

// One walk: each test starts where the one before left the page.
describe.sequential('tray UI in Chromium', () => {
  it('starts empty, with Roam running and its port in the status bar', async () => {
    await page.getByText('No graphs yet').waitFor();
    await contains(
      page.getByRole('contentinfo', { name: 'Status' }),
      `Roam Desktop running · port ${emulator.port}`,
    );
    await contains(page.getByRole('contentinfo', { name: 'Status' }), '0 MCP sessions connected');
    expectOneLineWithoutJump(await tabBarLayouts());
    await screenshot(page, 'empty');
  });

  it('adds a graph from the ones Roam reports and shows the approval', async () => {
    await page.getByRole('button', { name: 'Add graph' }).click();
    const form = page.getByRole('form', { name: 'Add a graph' });
    await poll(() => form.getByRole('combobox', { name: 'Graph' }).locator('option').allInnerTexts()).toEqual(
      [
        'Choose a graph…',
        'team-notes (hosted)',
        'reading-list (hosted)',
        'diary (offline)',
        'secret-plans (hosted)',
        'Type a name…',
      ],
    );
    await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'team-notes (hosted)' });
    await form.getByRole('textbox', { name: 'Nickname' }).fill('Team');
    await form.getByRole('textbox', { name: 'Description' }).fill('Shared notes of the team');
    await form.getByRole('radio', { name: /Read \+ append/ }).check();
    await screenshot(page, 'add-graph');
    await form.getByRole('button', { name: 'Add and request token' }).click();

    const panel = requestPanel('Team');
    await contains(panel, 'Approve the dialog in Roam Desktop');
    await panel.getByLabel(/^[45]:\d\d left$/).waitFor();
    await contains(graphRow('Team'), 'Waiting for approval');
    expect(emulator.pendingTokenRequests()).toEqual([
      expect.objectContaining({ graph: 'team-notes', accessLevel: 'read-append' }),
    ]);
    await screenshot(page, 'token-request');

    emulator.decide('team-notes', { kind: 'approve' });
    await contains(panel, 'Approved: Team is connected.');
    // A plain approval is one line (the access line above says what the token grants).
    expect(await panel.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(60);
    await contains(graphRow('Team'), 'the token grants the same');
    expect(await panel.innerText()).not.toContain('less than you asked');
    await contains(graphRow('Team'), 'Token ok');
  });

  it('never saves a typed graph that Roam Desktop does not have: the form says so, nothing is added or asked', async () => {
    const before = await preview.core.handlers['graphs:list'](undefined);
    emulator.clearRequests();
    await page.getByRole('button', { name: 'Add graph' }).click();
    const form = page.getByRole('form', { name: 'Add a graph' });
    await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'Type a name…' });
    await form.getByRole('textbox', { name: 'Graph name' }).fill('no-such-graph');
    await form.getByRole('button', { name: 'Add and request token' }).click();
    await contains(form.getByRole('alert').last(), "Roam Desktop has no hosted graph named 'no-such-graph'");
    await contains(form.getByRole('alert').last(), 'Nothing was added.');
    // Said once, and the focus is back on the name to correct it.
    expect(await form.innerText()).not.toContain('Roam Desktop does not list a hosted graph');
    const name = form.getByRole('textbox', { name: 'Graph name' });
    await poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await preview.core.handlers['graphs:list'](undefined)).toEqual(before);
    expect(emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request')).toEqual([]);
    expect(await graphRow('no-such-graph').count()).toBe(0);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('flags a downgrade when Roam grants less than asked', async () => {
    emulator.decide('reading-list', { kind: 'approve', accessLevel: 'read-only' });
    await addGraph({ graph: 'reading-list (hosted)', nickname: 'Reading', level: /Full/ });
    const panel = requestPanel('Reading');
    // Not headed as a plain success, and said once (the access note below has the way forward).
    await contains(panel, 'Approved with less access than you chose: Reading is connected.');
    await contains(panel, 'Granted access: Read only (you asked for Full');
    expect(await panel.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe(
      await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--warn)';
        document.body.append(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      }),
    );
    await contains(graphRow('Reading'), 'Read only');
    await screenshot(page, 'graphs');
  });

  it('wraps a long nickname and gives a long description the card’s whole width', async () => {
    const nickname = `Reading${'-and-more'.repeat(12)}`;
    const description = 'Books, papers and notes on them; '.repeat(8);
    await preview.core.handlers['graphs:update']({ id: 'hosted:reading-list', nickname, description });
    const row = graphRow(nickname);
    await contains(row, 'Books, papers');
    const sizes = await row.evaluate((card) => ({
      card: [card.scrollWidth, card.clientWidth],
      main: [document.querySelector('main')!.scrollWidth, document.querySelector('main')!.clientWidth],
      description: card.querySelector('.graph-description')!.getBoundingClientRect().width,
    }));
    expect(sizes.card[0]).toBeLessThanOrEqual(sizes.card[1]!);
    expect(sizes.main[0]).toBeLessThanOrEqual(sizes.main[1]!); // the panel does not scroll sideways
    expect(sizes.description).toBeGreaterThan(300);
    await preview.core.handlers['graphs:update']({
      id: 'hosted:reading-list',
      nickname: 'Reading',
      description: '',
    });
    await graphRow('Reading').waitFor();
  });

  it('shows a rejection with a retry that can then succeed', async () => {
    emulator.decide('diary', { kind: 'reject' }, 'offline');
    await addGraph({ graph: 'diary (offline)', level: /Read only/ });
    const panel = requestPanel('diary');
    await contains(panel, 'was declined in Roam');
    await contains(graphRow('diary'), 'No token');

    emulator.decide('diary', { kind: 'approve' }, 'offline');
    await panel.getByRole('button', { name: 'Try again' }).click();
    await contains(panel, 'Approved: diary is connected.');
    await contains(graphRow('diary'), 'Token ok');
  });

  it('moves a never-allowed graph to Blocked, and retries once unblocked', async () => {
    emulator.decide('secret-plans', { kind: 'never-allow' });
    const tabsAt = () =>
      page.getByRole('tab').evaluateAll((all) => all.map((t) => t.getBoundingClientRect().x));
    const before = await tabsAt();
    await addGraph({ graph: 'secret-plans (hosted)', nickname: 'Plans', level: /Read only/ });
    const panel = requestPanel('Plans');
    await contains(panel, '“Never Allow” was chosen in Roam');
    // What happened, as it is: the graph stays in Graphs, and Blocked lists it too.
    expect(await panel.innerText()).not.toMatch(/moved to Blocked/i);
    await contains(panel, 'Blocked lists it');
    await contains(graphRow('Plans'), 'Blocked');
    await tab('Blocked (1)').waitFor();
    // The count appearing moves no tab.
    expect(await tabsAt()).toEqual(before);
    expectOneLineWithoutJump(await tabBarLayouts());

    await panel.getByRole('button', { name: 'Show blocked graphs' }).click();
    await isSelected(tab(/Blocked/));
    // The button is gone with the Graphs view: the focus is on the Blocked tab, not lost.
    await poll(() => tab(/Blocked/).evaluate((el) => el === document.activeElement)).toBe(true);
    const blocked = page.getByRole('listitem', { name: 'Plans' });
    await contains(blocked, /settings/i);
    await screenshot(page, 'blocked');

    emulator.unblock('secret-plans');
    emulator.decide('secret-plans', { kind: 'approve' });
    await blocked.getByRole('button', { name: 'Retry Plans' }).click();
    await isSelected(tab('Graphs'));
    // The retried graph's row takes the focus and is in view, where the answer arrives.
    await poll(() => graphRow('Plans').evaluate((el) => el === document.activeElement)).toBe(true);
    await contains(requestPanel('Plans'), 'Approved: Plans is connected.');
    const panelBox = (await requestPanel('Plans').boundingBox())!;
    expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(600);
    await tab('Blocked').waitFor();
  });

  it('cancels a request still waiting in Roam', async () => {
    await graphRow('Team').getByRole('button', { name: 'Request token for Team' }).click();
    const panel = requestPanel('Team');
    await contains(panel, 'Approve the dialog in Roam Desktop');
    await poll(async () => emulator.pendingTokenRequests().length).toBe(1);
    await panel.getByRole('button', { name: 'Cancel request' }).click();
    await contains(panel, 'Token request for Team cancelled.');
    await poll(async () => emulator.pendingTokenRequests().length).toBe(0);
    await panel.getByRole('button', { name: /^Dismiss/ }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it('edits a graph and switches it off for agents', async () => {
    const row = graphRow('Reading');
    await row.getByRole('button', { name: 'Edit Reading' }).click();
    const form = page.getByRole('form', { name: 'Edit Reading' });
    // Form buttons look the same in Edit as in Add (not the row's compact action buttons).
    const size = (button: Locator) =>
      button.evaluate((el) => `${getComputedStyle(el).fontSize} ${getComputedStyle(el).padding}`);
    expect(await size(form.getByRole('button', { name: 'Save' }))).toBe(
      await size(page.getByRole('button', { name: 'Add graph' })),
    );
    await form.getByRole('textbox', { name: 'Nickname' }).fill('team');
    await contains(form, 'already');
    await form.getByRole('textbox', { name: 'Nickname' }).fill('Books');
    await form.getByText('Nickname is free.').waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await graphRow('Books').getByRole('switch', { name: 'Enabled: Books' }).click();
    await poll(async () => {
      const graphs = await preview.core.handlers['graphs:list'](undefined);
      return graphs.find((g) => g.name === 'reading-list');
    }).toMatchObject({ nickname: 'Books', enabled: false });
    // The switch follows the core's event: wait for that state, never read it once right after the click.
    await graphRow('Books').getByRole('switch', { name: 'Enabled: Books', checked: false }).waitFor();
  });

  it('is keyboard navigable: tabs with arrow keys, dialogs that return focus', async () => {
    await tab('Graphs').focus();
    await page.keyboard.press('ArrowRight');
    await isSelected(tab(/Blocked/));
    await poll(() => tab(/Blocked/).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await isSelected(tab('Graphs'));

    const remove = graphRow('Team').getByRole('button', { name: 'Remove Team' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Remove Team?' });
    await poll(() =>
      dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await poll(() => remove.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Shift+Tab'); // Edit, then open it from the keyboard
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Edit Team' });
    await poll(() => form.getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).press('Enter');
    const edit = graphRow('Team').getByRole('button', { name: 'Edit Team' });
    await poll(() => edit.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('removes a graph after confirmation', async () => {
    await graphRow('diary').getByRole('button', { name: 'Remove diary' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove diary?' });
    await poll(() =>
      dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await graphRow('diary').waitFor({ state: 'detached' });
    const graphs = await preview.core.handlers['graphs:list'](undefined);
    expect(graphs.map((g) => g.nickname).sort()).toEqual(['Books', 'Plans', 'Team']);
  });

  it('installs into Claude Desktop after showing the change, and the file changes', async () => {
    const [claude] = (await preview.core.handlers['clients:list'](undefined)).filter(
      (c) => c.id === 'claude-desktop',
    );
    const configPath = claude!.configPath!;
    expect(configPath.startsWith(home)).toBe(true);
    expect(existsSync(configPath)).toBe(false);
    await mkdir(path.dirname(configPath), { recursive: true }); // Claude Desktop is installed
    // A minified config with another server: the added entry must still be visible and wrapped.
    const other = { command: '/opt/other/bin/other-mcp-server', args: ['--a-long-flag', 'x'.repeat(80)] };
    await writeFile(configPath, JSON.stringify({ mcpServers: { other } }));

    await tab('AI clients').click();
    const row = page.getByRole('listitem', { name: 'Claude Desktop' });
    await contains(row, 'Not installed');
    // A card not installed folds its toolsets to one line too: no six checkboxes on every card.
    await contains(row.locator('details.toolsets summary'), 'core, navigation, ui, files, extensions');
    expect(await page.locator('details.toolsets').count()).toBeGreaterThan(0);
    expect(await page.locator('details.toolsets[open]').count()).toBe(0);
    // A long path wraps where the line is full, not at its hyphens as if they were words.
    const wrapped = await row.locator('p.path').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const right = el.getBoundingClientRect().right;
      const lines = [...range.getClientRects()];
      const full = lines.slice(0, -1).every((line) => right - line.right < 10);
      return { lines: lines.length, full };
    });
    expect(wrapped.lines).toBeGreaterThan(1);
    expect(wrapped.full).toBe(true);
    await row.getByRole('button', { name: 'Install into Claude Desktop…' }).click();
    const changes = row.getByLabel('Changes');
    // The minified line is rewritten: the inserted entry itself is what is marked.
    const inserted = changes.locator('.diff-line.added mark');
    await inserted.waitFor();
    expect(await inserted.innerText()).toMatch(/^, "roam-companion": \{"command":/);
    // Wrapped to the window: nothing hides past the right edge.
    expect(await changes.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'clients');
    await row.getByRole('button', { name: 'Confirm install' }).click();
    await contains(row, 'Installed');
    // As the CLI does, it says that the client must restart, and where the file as it was is kept.
    const done = row.getByRole('status', { name: 'Claude Desktop: done' });
    await contains(done, 'Installed in Claude Desktop.');
    await contains(done, 'Quit Claude Desktop completely and open it again');
    await contains(done, `The previous file is kept as ${configPath}.roam-companion-backup`);
    expect(JSON.parse(await readFile(`${configPath}.roam-companion-backup`, 'utf8'))).toEqual({
      mcpServers: { other },
    });
    await screenshot(page, 'clients-installed');
    await done.getByRole('button', { name: 'OK' }).click();
    await done.waitFor({ state: 'detached' });

    const written = JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(written.mcpServers)).toEqual(['other', 'roam-companion']);
    expect(JSON.stringify(written)).not.toContain(LOCAL_TOKEN_PREFIX);

    // Installed, its toolsets fold to one line with what its chats are served; nothing to apply.
    const fold = row.locator('details.toolsets');
    expect(await fold.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    await contains(fold.locator('summary'), 'core, navigation, ui, files, extensions · 48 tools');
    expect(await row.getByRole('button', { name: /Apply the toolsets/ }).count()).toBe(0);
    // A different toolset choice (the default less files) is applied to the installed entry as --tools after ours.
    await fold.locator('summary').click();
    await row
      .getByRole('group', { name: 'Toolsets for Claude Desktop' })
      .getByRole('checkbox', { name: /^files/ })
      .uncheck();
    await row.getByRole('button', { name: 'Apply the toolsets to Claude Desktop…' }).click();
    // The entry is there: the preview says it changes it, not that it adds one.
    await contains(row.getByLabel('Change preview'), 'Changes the Roam Companion entry in');
    await row.getByRole('button', { name: 'Confirm install' }).click();
    await poll(async () => {
      const entry = (
        JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, { args: string[] }> }
      ).mcpServers['roam-companion'];
      return entry?.args.slice(-2);
    }).toEqual(['--tools', 'core,navigation,ui,extensions']);
    await row.getByRole('button', { name: /Apply the toolsets/ }).waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'Uninstall from Claude Desktop…' }).click();
    await row.getByRole('button', { name: 'Confirm uninstall' }).click();
    await contains(row, 'Not installed');
    await contains(row.getByRole('status', { name: 'Claude Desktop: done' }), 'Removed from Claude Desktop.');
    const after = JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers?: Record<string, unknown> };
    expect(Object.keys(after.mcpServers ?? {})).toEqual(['other']);

    const claudeCode = page.getByRole('listitem', { name: 'Claude Code' });
    await claudeCode.getByRole('button', { name: 'Copy the Claude Code command' }).click();
    await claudeCode.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^claude mcp add/);
  });

  it('saves settings', async () => {
    await tab('Settings').click();
    const launchAtLogin = page.getByRole('checkbox', { name: 'Launch at login' });
    await launchAtLogin.click();
    await poll(() => launchAtLogin.isChecked()).toBe(true);
    await page.getByRole('combobox', { name: 'Default access level for new tokens' }).selectOption('full');
    await page.getByText(/Agents can read, add, edit, move and delete/).waitFor();
    // Each change says it was saved, under the settings, not under the upload folders.
    await contains(page.getByRole('status').filter({ hasText: 'saved' }), 'Default access level saved.');
    expect(await page.getByRole('region', { name: 'Upload folders' }).getByText('saved').count()).toBe(0);
    await poll(() => preview.core.handlers['settings:get'](undefined)).toEqual({
      launchAtLogin: true,
      defaultAccessLevel: 'full',
      uploadFolders: [],
      confirm: 'destructive',
    });
  });

  it('sets upload folders: added, refused with the reason, removed, and saved for the MCP servers', async () => {
    const folders = page.getByRole('region', { name: 'Upload folders' });
    await contains(folders, 'No upload folder');
    const field = folders.getByRole('textbox', { name: 'Folder to add (absolute path)' });
    // The example is this computer's kind of path (Linux here), not a Mac's.
    expect(await field.getAttribute('placeholder')).toBe('/home/you/Pictures');
    const pictures = path.join(home, 'Pictures');
    await mkdir(pictures);
    await field.fill(pictures);
    await field.press('Enter');
    await folders.getByRole('button', { name: `Remove upload folder ${pictures}` }).waitFor();
    await contains(folders.getByRole('status'), `Added ${pictures}: agents can upload files from it now.`);
    await poll(async () => (await preview.core.handlers['settings:get'](undefined)).uploadFolders).toEqual([
      pictures,
    ]);
    await screenshot(page, 'settings');

    for (const refused of [
      {
        folder: 'Pictures',
        reason:
          "'Pictures' is not a whole path, so it was not added: type the folder's full path, like /home/you/Pictures.",
      },
      { folder: path.join(home, '.ssh'), reason: 'is in a hidden folder (.ssh), so it was not added' },
      {
        folder: '/nonexistent/dir',
        reason:
          "'/nonexistent/dir' does not exist on this computer, so it was not added. Check the path (copy it from your file manager) and add it again.",
      },
    ]) {
      await field.fill(refused.folder);
      await folders.getByRole('button', { name: 'Add folder' }).click();
      await contains(folders.getByRole('alert'), refused.reason);
      // Said once, in a person's words: no channel name, no schema path.
      expect(await folders.getByRole('alert').innerText()).not.toMatch(
        /settings:set|uploadFolders|Invalid input/,
      );
      expect(await field.inputValue()).toBe(refused.folder); // kept, to correct
    }
    expect((await preview.core.handlers['settings:get'](undefined)).uploadFolders).toEqual([pictures]);

    await folders.getByRole('button', { name: `Remove upload folder ${pictures}` }).click();
    await contains(folders, 'No upload folder');
    await poll(async () => (await preview.core.handlers['settings:get'](undefined)).uploadFolders).toEqual(
      [],
    );
  });

  it('shows Roam stopping, and opens it again from the status bar', async () => {
    const status = page.getByRole('contentinfo', { name: 'Status' });
    /** Where each line of the status bar is, and its height: one layout, whatever Roam does. */
    const layout = () =>
      status.evaluate((bar) => ({
        lines: [...bar.querySelectorAll('.status-line')].map((line) => line.getBoundingClientRect().top),
        height: bar.getBoundingClientRect().height,
      }));
    const running = { 420: await layout() } as Record<number, Awaited<ReturnType<typeof layout>>>;
    await page.setViewportSize({ width: 1000, height: 760 });
    running[1000] = await layout();
    await page.setViewportSize({ width: 420, height: 600 });
    expect(running[420]!.lines).toHaveLength(2);
    await emulator.stop();
    await contains(status, 'Roam Desktop is not running');
    expect(await layout()).toEqual(running[420]);
    await page.setViewportSize({ width: 1000, height: 760 });
    expect(await layout()).toEqual(running[1000]);
    await page.setViewportSize({ width: 420, height: 600 });
    await status.getByRole('button', { name: 'Open Roam Desktop' }).click();
    // Opening Roam starts the emulator again on a port of its own, known once it runs: the
    // expected text read at the click named the old port whenever the start was still under way.
    await contains(status, /Roam Desktop running · port \d+/);
    await contains(status, `Roam Desktop running · port ${emulator.port}`);
    expect(preview.openedUrls[0]).toMatch(/^roam:/);
  });

  it('never shows a token to the page or sends one over the bridge', async () => {
    expect(pageErrors).toEqual([]);
    expect(bridgePayloads.length).toBeGreaterThan(20);
    for (const payload of bridgePayloads) expect(payload).not.toContain(LOCAL_TOKEN_PREFIX);
    expect(await page.content()).not.toContain(LOCAL_TOKEN_PREFIX);
  });
});
