/**
 * The rules behind access enforcement (src-mcp/access/): the effective level is the narrowest of
 * the chosen level, the token's grant and --read-only; every editing tool says what it changes
 * (or is refused under read-edit-own); the journal's answer plugs into the own-content check.
 * The enforcement itself is tested through the bin (access-levels.test.ts, access-tray.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { effectiveAccess } from '../../../src-mcp/access/effective.ts';
import { AiUsers, notCreatedByAgent, type AgentCreations } from '../../../src-mcp/access/own-content.ts';
import { tools as catalogue } from '../../../src-mcp/server/tool-catalogue.ts';
import type { ToolContext } from '../../../src-mcp/contract/tool-definition.ts';
import { parseConfigText } from '../../../src-mcp/config/config-file.ts';

describe('effective access', () => {
  it('is the narrowest known level, and says which setting decided it', () => {
    expect(effectiveAccess({ chosen: 'read-only', granted: 'full', readOnly: false })).toMatchObject({
      level: 'read-only',
      permissions: ['read'],
      decidedBy: 'chosen',
    });
    expect(effectiveAccess({ chosen: 'full', granted: 'read-append', readOnly: false })).toMatchObject({
      level: 'read-append',
      decidedBy: 'token',
    });
    expect(effectiveAccess({ chosen: 'read-edit-own', granted: 'full', readOnly: false })).toMatchObject({
      level: 'read-edit-own',
      permissions: ['read', 'append', 'edit-own'],
    });
    expect(effectiveAccess({ chosen: 'full', granted: 'full', readOnly: true })).toMatchObject({
      level: 'read-only',
      decidedBy: 'read-only-flag',
    });
    // A tie goes to the user's setting: the refusal names what the user can change.
    expect(
      effectiveAccess({ chosen: 'read-append', granted: 'read-append', readOnly: false }).decidedBy,
    ).toBe('chosen');
    expect(effectiveAccess({ chosen: undefined, granted: undefined, readOnly: false })).toEqual({
      level: undefined,
      permissions: 'unknown',
    });
  });
});

describe('editing tools under read-edit-own', () => {
  // update_page_markdown's targets are 'planned': it checks its plan itself (src-mcp/gate/planned-edits.ts).
  it('every tool that edits names its targets, except those that cannot be tied to agents’ content', () => {
    const editing = catalogue.filter((t) => t.writes === 'edit');
    const untargeted = editing
      .filter((t) => !t.editTargets)
      .map((t) => t.name)
      .sort();
    expect(untargeted).toEqual([
      'add_shortcut',
      // App only: the write it approves runs through the write path, checked there like any call.
      'approve_change',
      'call_extension_tool',
      'reload_dev_extensions',
      'remove_shortcut',
      // A session tool: it checks each graph's level itself (src-mcp/tools/core/changes.ts).
      'undo_changes',
    ]);
    expect(catalogue.filter((t) => t.editTargets && t.writes !== 'edit').map((t) => t.name)).toEqual([]);
  });

  it('each batch item is a target; deletes take their subtree', () => {
    const targets = (name: string, args: Record<string, unknown>) => {
      const declared = catalogue.find((t) => t.name === name)?.editTargets;
      return typeof declared === 'function' ? declared(args) : declared;
    };
    expect(targets('update_blocks', { updates: [{ uid: 'a' }, { uid: 'b' }] })).toEqual([
      { id: 'a', kind: 'node' },
      { id: 'b', kind: 'node' },
    ]);
    expect(targets('delete_blocks', { uids: ['a'] })).toEqual([{ id: 'a', kind: 'node', subtree: true }]);
  });
});

describe("the journal's answer (ctx.agentCreations)", () => {
  const graph = { name: 'g', type: 'hosted' as const };
  /** Roam's answer: 'mine' was written by the AI user, 'theirs' and 'journaled' by a person; the journal's, `said`. */
  const withJournal = (said: AgentCreations): ToolContext => ({
    ...roam,
    agentCreations: said,
    aiUsers: new AiUsers(),
  });
  const roam = {
    call: async (action: string) =>
      action === 'data.ai.getGraphGuidelines'
        ? { aiUserDisplayName: 'Claude (AI)' }
        : [
            ['mine', { ':block/uid': 'mine', ':create/user': { ':user/display-name': 'Claude (AI)' } }],
            ['theirs', { ':block/uid': 'theirs', ':create/user': { ':user/display-name': 'Ada' } }],
            ['journaled', { ':block/uid': 'journaled', ':create/user': { ':user/display-name': 'Ada' } }],
          ],
  } as unknown as ToolContext;
  const ctx = withJournal(() => new Map());
  const targets = ['mine', 'theirs', 'journaled'].map((id) => ({ id, kind: 'node' as const }));

  it("where the journal has no say, only Roam's answer counts", async () => {
    expect((await notCreatedByAgent(ctx, graph, targets)).map((r) => r.id)).toEqual(['theirs', 'journaled']);
  });

  it('what the journal says an agent created is the agent’s, whoever Roam says wrote it', async () => {
    const asked: string[][] = [];
    const journal = withJournal((g, ids, aiUser) => {
      asked.push([g.name, aiUser ?? '', ...ids]);
      return new Map([['journaled', true]]);
    });
    expect((await notCreatedByAgent(journal, graph, targets)).map((r) => r.id)).toEqual(['theirs']);
    // Every target is asked: the journal decides wherever it has a say.
    expect(asked).toEqual([['g', 'Claude (AI)', 'mine', 'theirs', 'journaled']]);
  });

  it('a block the journal says is not an agent’s is refused, although Roam says the AI user wrote it', async () => {
    // A person's block an undo recreated with the agent's token.
    const journal = withJournal(() => new Map([['mine', false]]));
    expect((await notCreatedByAgent(journal, graph, targets)).map((r) => r.id)).toEqual([
      'mine',
      'theirs',
      'journaled',
    ]);
  });

  it('a file can only be vouched for by the journal', async () => {
    const file = { id: 'https://files/x.png', kind: 'file' as const };
    expect(await notCreatedByAgent(ctx, graph, [file])).toEqual([
      { id: file.id, reason: 'no recorded upload by an agent' },
    ]);
    expect(
      await notCreatedByAgent(
        withJournal(() => new Map([[file.id, true]])),
        graph,
        [file],
      ),
    ).toEqual([]);
  });
});

describe("the graph's AI user (ctx.aiUsers)", () => {
  const graph = { name: 'g', type: 'hosted' as const };
  const roamNaming = (aiUser: string | undefined, asked: string[]) =>
    ({
      call: async (action: string) => {
        asked.push(action);
        if (action === 'data.ai.getGraphGuidelines') return aiUser ? { aiUserDisplayName: aiUser } : {};
        return [['b1', { ':block/uid': 'b1', ':create/user': { ':user/display-name': 'Claude (AI)' } }]];
      },
      agentCreations: () => new Map(),
    }) as unknown as ToolContext;
  const target = [{ id: 'b1', kind: 'node' as const }];

  it("is asked of Roam once per server, and one server's answer is not another's", async () => {
    const asked: string[] = [];
    const ctx = roamNaming('Claude (AI)', asked);
    const server = new AiUsers();
    expect(await notCreatedByAgent({ ...ctx, aiUsers: server }, graph, target)).toEqual([]);
    expect(await notCreatedByAgent({ ...ctx, aiUsers: server }, graph, target)).toEqual([]);
    expect(asked.filter((a) => a === 'data.ai.getGraphGuidelines')).toHaveLength(1);
    // Another server knows nothing yet: its Roam names nobody, so nothing is the agent's.
    const other = new AiUsers();
    const unnamed = roamNaming(undefined, []);
    expect(await notCreatedByAgent({ ...unnamed, aiUsers: other }, graph, target)).toEqual([
      { id: 'b1', reason: 'not created by an agent' },
    ]);
    expect([server.unknown(graph), other.unknown(graph)]).toEqual([false, true]);
  });

  it("select_graph's guidelines answer spares the question", async () => {
    const asked: string[] = [];
    const aiUsers = new AiUsers();
    aiUsers.remember(graph, { aiUserDisplayName: 'Claude (AI)' });
    expect(await notCreatedByAgent({ ...roamNaming('Claude (AI)', asked), aiUsers }, graph, target)).toEqual(
      [],
    );
    expect(asked).toEqual(['data.q']);
  });
});

describe('config files', () => {
  it('keep read-edit-own, and list disabled graphs as switched off', () => {
    const parsed = parseConfigText(
      JSON.stringify({
        graphs: [
          { name: 'a', accessLevel: 'read-edit-own' },
          { name: 'b', nickname: 'Bee', disabled: true },
        ],
      }),
      'f.json',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.graphs).toEqual([
      { name: 'a', type: 'hosted', nickname: 'a', accessLevel: 'read-edit-own' },
    ]);
    expect(parsed.switchedOff).toEqual([{ name: 'b', nickname: 'Bee' }]);
  });
});
