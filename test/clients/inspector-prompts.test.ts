/**
 * The prompts through the MCP Inspector CLI (2.x, a client nobody here wrote) against the built
 * bin over stdio and an emulator graph: prompts/list per toolset selection, prompts/get of each
 * prompt with arguments, and a bad argument's error. The Inspector CLI has no completion command
 * (its 2.12 CLI refuses `prompts/complete`), so completion is tested with the SDK clients
 * (test/mcp/prompts/prompts.test.ts). Like test/clients/inspector-cli.test.ts, it runs on the
 * npm-shipped Node 24; the token lives only in the temp HOME's config file.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ltsNodePath, ltsNodeSupported } from '../../scripts/lts-node.mjs';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { binCommand, newToken, removeHome, ROOT, tempHome, writeToolsConfig } from '../harness/mcp-bin.ts';

const INSPECTOR_NODE = ltsNodePath('node24');
const INSPECTOR = path.join(
  ROOT,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const TOKEN = newToken();

let home: string;
let emulator: Emulator;

interface Outcome {
  result?: { prompts?: Array<{ name: string }>; messages?: Array<{ content: Record<string, unknown> }> };
  error?: { message: string };
}

/**
 * One Inspector CLI run (`--cli --format json -q`), its JSON output (a failed request exits
 * non-zero with `{error}` on stderr). `--prompt-args` takes every following word, so the
 * environment and the server command come after an option that ends it.
 */
async function inspect(args: string[], tools = 'core'): Promise<Outcome> {
  const run = promisify(execFile)(
    INSPECTOR_NODE,
    [
      INSPECTOR,
      '--cli',
      '--format',
      'json',
      '-q',
      ...args,
      '-e',
      'ROAM_MCP_NO_LAUNCH=1',
      '-e',
      `ROAM_MCP_TOOLS=${tools}`,
      ...binCommand().flat(),
    ],
    { cwd: home, env: { HOME: home, PATH: process.env.PATH ?? '' }, timeout: 60_000 },
  );
  const output = await run.then(
    (ok) => ok.stdout,
    (failed: { stderr?: string }) => failed.stderr ?? '',
  );
  expect(output).not.toContain(TOKEN);
  return JSON.parse(output) as Outcome;
}

const getPrompt = (name: string, args: string[], tools?: string) =>
  inspect(['--method', 'prompts/get', '--prompt-name', name, '--prompt-args', ...args], tools);

function textOf(outcome: Outcome): string {
  expect(outcome.error).toBeUndefined();
  return (outcome.result?.messages ?? [])
    .map(({ content }) =>
      String(content.text ?? (content.resource as { text?: string } | undefined)?.text ?? ''),
    )
    .join('\n');
}

beforeAll(async () => {
  home = await tempHome('roam-inspector-prompts-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'demo', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  await writeToolsConfig(home, [{ name: 'demo', token: TOKEN, nickname: 'Demo' }]);
});

afterAll(async () => {
  await emulator?.close();
  await removeHome(home);
});

describe.skipIf(!ltsNodeSupported)('prompts through the MCP Inspector CLI against dist/roam-mcp.mjs', () => {
  it('lists the prompts the toolsets offer: core has backlinks, daily-review and review-changes, all has five', async () => {
    const names = async (tools: string) =>
      ((await inspect(['--method', 'prompts/list'], tools)).result?.prompts ?? []).map((p) => p.name);
    expect(await names('core')).toEqual(['backlinks', 'daily-review', 'review-changes']);
    expect(await names('all')).toEqual(['backlinks', 'graph', 'related', 'daily-review', 'review-changes']);
  });

  it('gets backlinks and daily-review with arguments (the only graph is used)', async () => {
    const backlinks = textOf(await getPrompt('backlinks', ['page=Project Apollo']));
    expect(backlinks).toContain('Kick-off for [[Project Apollo]] with [[Ada Lovelace]] #meeting');
    const review = await getPrompt('daily-review', ['date=2026-11-22', 'graph=Demo']);
    expect(review.result?.messages?.[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'roam://Demo/page/November%2022nd%2C%202026' },
    });
    expect(textOf(review)).toContain('{{[[TODO]]}} Review the [[Roam Companion]] demo');
  });

  it('gets graph and related with the navigation toolset', async () => {
    const graph = textOf(await getPrompt('graph', ['page=Project Apollo', 'depth=2'], 'all'));
    expect(graph).toContain('center: [[Project Apollo]] (');
    const related = textOf(await getPrompt('related', ['query=Project Apollo'], 'all'));
    expect(related).toMatch(/1\. \[\[Project Hermes\]\] — /);
  });

  it('a page that does not exist is an error naming the closest titles', async () => {
    const outcome = await getPrompt('backlinks', ['page=Projet Apolo']);
    expect(outcome.error?.message).toMatch(
      /NOT_FOUND: Page "Projet Apolo" does not exist .*"Project Apollo"/,
    );
  });
});
