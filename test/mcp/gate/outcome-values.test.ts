/**
 * The gate answers values (src-mcp/gate/outcome.ts), and the channel is chosen in one place
 * (src-mcp/gate/channels/index.ts): each channel's outcome for the same write that must be asked,
 * and the choice from a connection's facts (capabilities, Roam Companion showing proposals,
 * whether approvals in the chat count). The gate in this process alone (no data folder), the
 * proposals its own; the built bin's tests (confirm, waiting-proposal, who-approves-http) show
 * the same outcomes through real clients.
 */
import { describe, expect, it } from 'vitest';
import { NOTHING_TAKEN, type TakenAway } from '../../../src-mcp/contract/taken-away.ts';
import type { ConsentChannel, Connection } from '../../../src-mcp/gate/channels/channel.ts';
import { companion } from '../../../src-mcp/gate/channels/companion.ts';
import { formElicitation } from '../../../src-mcp/gate/channels/form-elicitation.ts';
import { inChatApproval } from '../../../src-mcp/gate/channels/in-chat-approval.ts';
import { chooseChannel } from '../../../src-mcp/gate/channels/index.ts';
import { nobody } from '../../../src-mcp/gate/channels/nobody.ts';
import { confirmationOf, type Confirmation } from '../../../src-mcp/gate/confirm.ts';
import { ConsentGate, type GatedCall } from '../../../src-mcp/gate/consent.ts';
import { Proposals } from '../../../src-mcp/gate/proposals.ts';

const GRAPH = { id: 'hosted:g', nickname: 'G' };
let n = 0;
/** A delete of 20 blocks on a page of its own: above every threshold, so it must be asked. */
function twentyBlocks(): { call: GatedCall; taken: TakenAway } {
  n += 1;
  const blocks = Array.from({ length: 20 }, (_, i) => ({
    uid: `b${n}-${i}`,
    text: `line ${i}`,
    page: `P${n}`,
  }));
  return { call: { tool: 'delete_blocks', args: { n }, graph: GRAPH }, taken: { ...NOTHING_TAKEN, blocks } };
}

function world(trayShows = false) {
  const proposals = new Proposals();
  if (trayShows) proposals.watch({ proposed: () => {}, closed: () => {} });
  const gate = new ConsentGate(proposals);
  const judge = (confirmation: Confirmation, write = twentyBlocks()) =>
    gate.holding([GRAPH.id], () =>
      gate.beforeWrite(write.call, confirmation, () => Promise.resolve(write.taken)),
    );
  return { proposals, gate, judge };
}
const on = (channel: ConsentChannel, answer?: Confirmation['answer']): Confirmation => ({
  channel,
  policy: 'destructive',
  ...(answer ? { answer } : {}),
});

describe('each channel answers the same write with its own outcome, as a value', () => {
  it('form elicitation: ask now, with what the question showed; the retried yes goes ahead, a no is not done', async () => {
    const { judge } = world();
    const write = twentyBlocks();
    const asked = await judge(on(formElicitation), write);
    expect(asked).toMatchObject({
      kind: 'ask',
      question: expect.stringMatching(/^Delete 20 blocks on 'P\d+'/),
    });
    if (asked.kind !== 'ask') throw new Error('not asked');
    expect(asked.shown).toEqual([{ graph: GRAPH, taken: write.taken }]);
    expect(asked.reply).toMatchObject({
      inputRequests: { confirm: { params: { message: asked.question } } },
    });
    expect(await judge(on(formElicitation, 'accept'), write)).toMatchObject({ kind: 'go' });
    expect(await judge(on(formElicitation, 'decline'))).toMatchObject({
      kind: 'not-done',
      reason: 'declined',
      message: expect.stringMatching(/^Not done: the person declined delete_blocks/),
    });
  });

  it('in-chat approval: leave waiting, with the approval view’s data for the chat', async () => {
    const { judge, proposals } = world();
    const waiting = await judge(on(inChatApproval));
    expect(waiting).toMatchObject({
      kind: 'wait',
      message: expect.stringMatching(/in the approval shown in this chat \(/),
    });
    if (waiting.kind !== 'wait') throw new Error('not waiting');
    expect(waiting.toChat).toMatchObject({
      'roam-companion/approve': {
        tool: 'approve_change',
        arguments: { proposal: waiting.proposal.id, code: waiting.code },
      },
      'roam-companion/keep': { tool: 'keep_change' },
      'roam-companion/proposal': { id: waiting.proposal.id },
    });
    expect(proposals.redeem(waiting.proposal.id, waiting.code).id).toBe(waiting.proposal.id);
  });

  it('Roam Companion: leave waiting, answered there only: nothing for the chat', async () => {
    const { judge } = world(true);
    const waiting = await judge(on(companion));
    expect(waiting).toMatchObject({
      kind: 'wait',
      message: expect.stringMatching(/They answer in Roam Companion \(/),
    });
    expect(waiting).not.toHaveProperty('toChat');
  });

  it('nobody: go ahead with a reservation, or refuse where the graph or the channel says so', async () => {
    const { judge, gate } = world();
    const went = await judge(on(nobody));
    expect(went.kind).toBe('go');
    const strict = twentyBlocks();
    strict.call.refusesUnasked = () => true;
    expect(
      await gate.holding([GRAPH.id], () =>
        gate.beforeWrite(strict.call, on(nobody), () => Promise.resolve(strict.taken)),
      ),
    ).toMatchObject({
      kind: 'refuse',
      error: { code: 'ACCESS_LEVEL', details: { setting: 'whenNobodyCanAsk' } },
    });
    const neverUnasked: ConsentChannel = { name: 'never-unasked', serves: () => true, refusesUnasked: true };
    expect(await judge(on(neverUnasked))).toMatchObject({
      kind: 'refuse',
      error: { code: 'ACCESS_LEVEL', message: expect.stringMatching(/never made unasked from it/) },
    });
  });
});

describe('the channel is chosen from the connection, best first', () => {
  const APPS = { extensions: { 'io.modelcontextprotocol/ui': {} } };
  const connection = (over: Partial<Connection>): Connection => ({
    capabilities: undefined,
    inputResponses: undefined,
    trayShows: false,
    approvesInChat: true,
    ...over,
  });
  it.each([
    [
      'elicitation, apps and the tray',
      { capabilities: { elicitation: {}, ...APPS }, trayShows: true },
      'elicit',
    ],
    ['url-only elicitation, apps', { capabilities: { elicitation: { url: {} }, ...APPS } }, 'app'],
    ['apps whose approvals count', { capabilities: APPS, trayShows: true }, 'app'],
    [
      'apps whose approvals do not count, the tray',
      { capabilities: APPS, approvesInChat: false, trayShows: true },
      'tray',
    ],
    ['apps whose approvals do not count, no tray', { capabilities: APPS, approvesInChat: false }, 'none'],
    ['neither, the tray', { trayShows: true }, 'tray'],
    ['neither, no tray', {}, 'none'],
  ] as const)('%s: %s', (_what, over, name) => {
    expect(chooseChannel(connection(over)).name).toBe(name);
  });

  it('a retried call carries its answer on the channel that asked', () => {
    const retried = connection({
      capabilities: { elicitation: {} },
      inputResponses: { confirm: { action: 'accept' } },
    });
    expect(confirmationOf(retried, 'destructive')).toMatchObject({ answer: 'accept', policy: 'destructive' });
    expect(confirmationOf(connection({}), 'destructive')).not.toHaveProperty('answer');
  });
});
