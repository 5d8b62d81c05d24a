/**
 * The prompts through the MCP Inspector CLI (2.x, a client nobody here wrote) against the built
 * bin over stdio and an emulator graph: prompts/list per toolset selection, prompts/get of each
 * prompt with arguments, and a bad argument's error. The Inspector CLI has no completion command
 * (its 2.12 CLI refuses `prompts/complete`), so completion is tested with the SDK clients
 * (test/mcp/prompts/prompts.test.ts). Like test/clients/inspector-cli.test.ts, it runs on the
 * npm-shipped Node 24; the token lives only in the temp HOME's config file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ltsNodeSupported } from '../../scripts/lts-node.mjs';
import { startInspectorHome, type InspectorHome } from './inspector.ts';

let inspector: InspectorHome;

interface Outcome {
  result?: { prompts?: Array<{ name: string }>; messages?: Array<{ content: Record<string, unknown> }> };
  error?: { message: string };
}

/** One Inspector CLI run with these toolsets, its JSON answer (a failed request's `{error}` too). */
const inspect = async (args: string[], tools = 'core') =>
  JSON.parse(await inspector.inspect(args, ['-e', `ROAM_MCP_TOOLS=${tools}`])) as Outcome;

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
  inspector = await startInspectorHome('roam-inspector-prompts-');
});

afterAll(async () => {
  await inspector?.close();
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
