/**
 * What a new user tripped over, tried again as they would: token request panels that piled up and
 * went stale, errors meant for agents, the add form's misplaced errors and hidden buttons, alarming
 * or unlabelled pills and switches, a preview that listed additions first, and access levels that
 * hid what the token allows. Debian's Chromium against the real core and the emulator.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Preview } from '../../src-main/preview/server.ts';
import type { Emulator } from '../emulator/types.ts';
import { screenshot } from './screenshots.ts';
import { poll } from './poll.ts';
import { startTrayWorld, TRAY_GRAPHS, type TrayWorld } from './tray-world.ts';

let emulator: Emulator;
let preview: Preview;
let page: Page;
let tray: TrayWorld | undefined;

beforeAll(async () => {
  tray = await startTrayWorld({
    prefix: 'tray-first-use-',
    graphs: [...TRAY_GRAPHS, { name: 'own-notes' }],
    preview: { env: {} },
  });
  ({ emulator, preview, page } = tray);
});

afterAll(async () => {
  await tray?.close();
});

const contains = (locator: Locator, text: string | RegExp) =>
  typeof text === 'string'
    ? poll(() => locator.innerText()).toContain(text)
    : poll(() => locator.innerText()).toMatch(text);
const graphRow = (nickname: string) => page.getByRole('listitem', { name: nickname, exact: true });
const requestPanel = (nickname: string) =>
  graphRow(nickname).getByRole('region', { name: `Token request for ${nickname}` });
const status = () => page.getByRole('contentinfo', { name: 'Status' });
const box = async (locator: Locator) => (await locator.boundingBox())!;
const addForm = () => page.getByRole('form', { name: 'Add a graph' });

async function addGraph(graph: string, level: RegExp, nickname?: string): Promise<void> {
  await page.getByRole('button', { name: 'Add graph' }).click();
  await addForm().getByRole('combobox', { name: 'Graph' }).selectOption({ label: graph });
  if (nickname) await addForm().getByRole('textbox', { name: 'Nickname' }).fill(nickname);
  await addForm().getByRole('radio', { name: level }).check();
  await addForm().getByRole('button', { name: 'Add and request token' }).click();
  await addForm().waitFor({ state: 'detached' });
}

// One walk: each test starts where the one before left the page.
describe.sequential('token request panels: one per graph, in its row, gone when out of date', () => {
  it('three requests leave the list where it was: each panel sits in its own row', async () => {
    emulator.decide('reading-list', { kind: 'approve', accessLevel: 'read-only' });
    await addGraph('reading-list (hosted)', /Full/, 'Reading');
    emulator.decide('team-notes', { kind: 'approve' });
    await addGraph('team-notes (hosted)', /Read \+ append/, 'Team');
    emulator.decide('diary', { kind: 'reject' }, 'offline');
    await addGraph('diary (offline)', /Read only/);
    await contains(
      requestPanel('Reading'),
      'Approved with less access than you chose: Reading is connected.',
    );
    await contains(requestPanel('Team'), 'Approved: Team is connected.');
    await contains(requestPanel('diary'), 'The request for diary was declined in Roam.');
    // Every panel is inside its graph's row; none above the list pushes it down.
    expect(await page.getByRole('region', { name: /^Token request for/ }).count()).toBe(3);
    await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
    const heading = await box(page.getByRole('heading', { name: 'Graphs' }));
    expect(heading.y - (await box(page.locator('main'))).y).toBeLessThan(20); // nothing above the list
    const firstRow = await box(page.getByRole('list', { name: 'Graphs' }).getByRole('listitem').first());
    expect(firstRow.y - (heading.y + heading.height)).toBeLessThan(20);
  });

  it('an approval that said "Read + append" goes when the graph is set to Read only; the row says what holds', async () => {
    await graphRow('Team').getByRole('button', { name: 'Edit Team' }).click();
    const form = page.getByRole('form', { name: 'Edit Team' });
    await form.getByRole('radio', { name: /Read only/ }).check();
    await contains(form, 'The token allows it: roam-mcp holds agents to Read only as soon as you save.');
    await form.getByRole('button', { name: 'Save' }).click();
    await requestPanel('Team').waitFor({ state: 'detached' });
    await contains(graphRow('Team'), 'The token grants Read + append; roam-mcp holds agents to Read only.');
  });

  it('a level wider than the grant says so and offers the new token request', async () => {
    const row = graphRow('Reading');
    await contains(row, 'Access: Full');
    await contains(
      row,
      'The token is limited to Read only, so agents get Read only access until Roam approves a Full token.',
    );
    await screenshot(page, 'access-levels', row);
    await row.getByRole('button', { name: 'Request a Full token for Reading' }).click();
    await poll(async () => emulator.pendingTokenRequests()).toEqual([
      expect.objectContaining({ graph: 'reading-list', accessLevel: 'full' }),
    ]);
    await requestPanel('Reading').getByRole('button', { name: 'Cancel request' }).click();
    await contains(requestPanel('Reading'), 'cancelled');
  });

  it('"Own edits only" is offered with what it means; Roam is asked for Full and roam-mcp holds agents to it', async () => {
    await page.getByRole('button', { name: 'Add graph' }).click();
    const own = addForm().getByRole('radio', { name: /^Own edits only/ });
    expect(await own.evaluate((el) => el.closest('label')?.textContent)).toBe(
      'Own edits only — Agents can read and add anywhere, and change or delete only what agents created.',
    );
    await page.keyboard.press('Escape');
    await addGraph('own-notes (hosted)', /^Own edits only/, 'Own');
    await poll(async () => emulator.pendingTokenRequests()).toEqual([
      expect.objectContaining({ graph: 'own-notes', accessLevel: 'full' }),
    ]);
    emulator.decide('own-notes', { kind: 'approve' });
    await contains(graphRow('Own'), 'Access: Own edits only');
    await contains(graphRow('Own'), 'The token grants Full; roam-mcp holds agents to Own edits only.');
  });

  it('"Roam Desktop is not running" offers to open it, and goes once Roam runs', async () => {
    await emulator.stop();
    await contains(status(), 'Roam Desktop is not running');
    await graphRow('Team').getByRole('button', { name: 'Request token for Team' }).click();
    const panel = requestPanel('Team');
    await contains(panel, 'Roam Desktop is not running, so nobody could approve the request.');
    await screenshot(page, 'request-failed', graphRow('Team'));
    await panel.getByRole('button', { name: 'Open Roam Desktop' }).click();
    await contains(status(), /Roam Desktop running · port \d+/);
    await panel.waitFor({ state: 'detached' });
  });

  it('a graph Roam does not have is explained for a person, with the way out', async () => {
    await page.getByRole('button', { name: 'Add graph' }).click();
    const form = addForm();
    await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'Type a name…' });
    await form.getByRole('textbox', { name: 'Graph name' }).fill('no-such-graph');
    await contains(form, "Roam Desktop does not list a hosted graph 'no-such-graph': check the spelling.");
    await form.getByRole('button', { name: 'Add and request token' }).click();
    // Not saved, switched on and offered to agents: refused in the form, which stays to correct.
    await contains(form.getByRole('alert').last(), "Roam Desktop has no hosted graph named 'no-such-graph'");
    expect(await graphRow('no-such-graph').count()).toBe(0);
    // As a public graph (not in Roam's list, so asked for as typed) the request explains the typo.
    await form.getByRole('checkbox', { name: /Public graph/ }).check();
    await form.getByRole('button', { name: 'Add and request token' }).click();
    const panel = requestPanel('no-such-graph');
    await contains(panel, "Roam Desktop could not open the hosted graph 'no-such-graph': it does not exist");
    expect(await panel.innerText()).not.toMatch(/uid|arguments/i);
    // One Remove, the row's own: the answer does not repeat it.
    expect(await panel.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    await graphRow('no-such-graph').getByRole('button', { name: 'Remove no-such-graph' }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove no-such-graph?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await graphRow('no-such-graph').waitFor({ state: 'detached' });
  });
});

describe('Add graph at 420×600 and 1000×760', () => {
  for (const viewport of [
    { width: 420, height: 600 },
    { width: 1000, height: 760 },
  ]) {
    it(`${viewport.width}×${viewport.height}: errors at their field, an empty nickname explained, Add and Cancel above the status bar`, async () => {
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: 'Add graph' }).click();
      const form = addForm();
      await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'Type a name…' });
      await form.getByRole('button', { name: 'Add and request token' }).click();
      const name = form.getByRole('textbox', { name: 'Graph name' });
      const error = form.getByRole('alert');
      await contains(error, 'Enter the graph’s name as Roam shows it');
      expect((await box(error)).y - ((await box(name)).y + (await box(name)).height)).toBeLessThan(30);
      await name.fill('fresh-graph');
      await error.waitFor({ state: 'detached' });
      await contains(form, "Optional. Left empty, agents call this graph by its name, 'fresh-graph'.");

      await form.getByRole('textbox', { name: 'Nickname' }).fill('reading');
      const clash = form.getByText(/^'reading' is already the nickname of graph 'reading-list'/);
      await clash.waitFor();
      expect((await box(clash)).height).toBeLessThan(40); // two lines at most
      for (const button of ['Cancel', 'Add and request token']) {
        const { y, height } = await box(form.getByRole('button', { name: button }));
        expect(y + height, `${button} above the status bar`).toBeLessThanOrEqual((await box(status())).y);
      }
      if (viewport.width === 1000) await screenshot(page, 'add-graph-large');
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });
    });
  }

  it('the inline edit leaves room between the description and the Nickname label', async () => {
    await page.setViewportSize({ width: 420, height: 600 });
    await graphRow('Team').getByRole('button', { name: 'Edit Team' }).click();
    const form = page.getByRole('form', { name: 'Edit Team' });
    const label = await box(form.getByText('Nickname', { exact: true }));
    const above = await box(graphRow('Team').getByText('Access:'));
    expect(label.y - (above.y + above.height)).toBeGreaterThanOrEqual(16);
    await screenshot(page, 'edit-graph');
    await page.keyboard.press('Escape');
  });
});

describe('pills and switches say what they mean', () => {
  it('Blocked shows the graph type as a neutral pill, not an error', async () => {
    emulator.decide('secret-plans', { kind: 'never-allow' });
    await addGraph('secret-plans (hosted)', /Read only/, 'Plans');
    await page.getByRole('tab', { name: 'Blocked (1)' }).click();
    const pill = page.getByRole('listitem', { name: 'Plans' }).getByText('Hosted', { exact: true });
    const colors = await pill.evaluate((el) => {
      const probe = (variable: string) => {
        const span = document.createElement('span');
        span.style.color = `var(${variable})`;
        document.body.append(span);
        const color = getComputedStyle(span).color;
        span.remove();
        return color;
      };
      return { pill: getComputedStyle(el).color, danger: probe('--danger'), muted: probe('--muted') };
    });
    expect(colors.pill).not.toBe(colors.danger);
    expect(colors.pill).toBe(colors.muted);
    await page.getByRole('tab', { name: 'Graphs' }).click();
  });

  it('the enable switch is labelled on screen, and a switched-off graph looks off', async () => {
    const row = graphRow('diary');
    expect(await row.locator('label.switch-field').innerText()).toBe('On');
    await row.getByRole('switch', { name: 'Enabled: diary' }).click();
    await contains(row, 'Switched off: agents do not see this graph until you enable it.');
    // A switch that is off does not say "Enabled" beside it.
    expect(await row.locator('label.switch-field').innerText()).toBe('Off');
    expect(await row.evaluate((el) => getComputedStyle(el).borderStyle)).toBe('dashed');
    expect(await graphRow('Team').evaluate((el) => getComputedStyle(el).borderStyle)).toBe('solid');
  });
});

describe('the install preview is a unified diff', () => {
  it('an untouched server in a Cursor config shows only its added comma; removed lines come first', async () => {
    const [cursor] = (await preview.core.handlers['clients:list'](undefined)).filter(
      (c) => c.id === 'cursor',
    );
    await mkdir(path.dirname(cursor!.configPath!), { recursive: true });
    const github = '"github": { "command": "docker", "args": ["run", "ghcr.io/github/github-mcp-server"] }';
    await writeFile(cursor!.configPath!, `{\n  "mcpServers": {\n    ${github}\n  }\n}\n`);
    await page.getByRole('tab', { name: 'AI clients' }).click();
    const row = page.getByRole('listitem', { name: 'Cursor' });
    await row.getByRole('button', { name: 'Install into Cursor…' }).click();
    const lines = row.getByLabel('Changes').locator('.diff-line');
    await lines.first().waitFor();
    const shown = await lines.evaluateAll((all) =>
      all.map((el) => ({
        kind: el.className.replace('diff-line', '').trim() || 'context',
        text: el.textContent ?? '',
        marked: [...el.querySelectorAll('mark')].map((m) => m.textContent),
      })),
    );
    const changed = shown.filter((l) => l.kind !== 'context');
    expect(changed[0]).toEqual({ kind: 'removed', text: `-     ${github}`, marked: [] });
    expect(changed[1]).toEqual({ kind: 'added', text: `+     ${github},`, marked: [','] });
    expect(changed.slice(2).every((l) => l.kind === 'added' && l.marked.length === 0)).toBe(true);
    await screenshot(page, 'install-diff', row);
    await page.keyboard.press('Escape');
  });
});
