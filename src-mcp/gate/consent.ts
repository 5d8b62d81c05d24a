/**
 * The one gate on the write path, by effect (docs/mcp.md, "Consent before a write takes much
 * away"): before a write runs, what it would take away (src-mcp/contract/taken-away.ts, read by
 * the tool's `takes` or handed over with update_page_markdown's plan) is added to what this chat
 * took from the graph in the last WINDOW_MS, and thresholds.ts decides whether the person must
 * say yes. A decline is remembered for the pages it would have taken from, whatever the tool: the
 * same effect by another tool, or in small calls, is asked again. No tool asks by itself.
 */
import { createHash } from 'node:crypto';
import { currentChat } from '../contract/chat-scope.ts';
import type { TakenAway } from '../contract/taken-away.ts';
import {
  ChangedSinceAsked,
  ConfirmationNeeded,
  nobodyToAsk,
  NotConfirmed,
  ProposalWaiting,
  type Confirmation,
} from './confirm.ts';
import { consentQuestion, pagesTakenFrom } from './consent-question.ts';
import { settle, type Proposals } from './proposals.ts';
import { blocksTaken, DECLINE_MEMORY_MS, reasonToAsk, takesAnything, WINDOW_MS } from './thresholds.ts';

interface ChatMemory {
  /** What went through, per graph: when and how many blocks. */
  taken: Array<{ at: number; graph: string; blocks: number }>;
  /** graph + page title → when the person declined a change to it. */
  declined: Map<string, number>;
  /** graph + code with unknown effects the person allowed → when. */
  allowed: Map<string, number>;
}

const MAX_CHATS = 1000;

const key = (graph: string, what: string) => `${graph}\u0000${what}`;

/** The call the gate judges: which tool, on which graph (its key, and its nickname for a person). */
export interface GatedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The graph's nickname; absent for a call that names none (an undo): the graphs it reads say it. */
  graph?: string;
  /**
   * Given only when a graph it may touch refuses what nobody can be asked about
   * (`whenNobodyCanAsk: "refuse"`): whether these graphs (nicknames) do.
   */
  refusesUnasked?: (graphs: readonly string[]) => boolean;
}

/** A stable hash of what the person was shown: an approval runs only while it still holds. */
export function fingerprintOf(taken: TakenAway): string {
  const uids = (items: ReadonlyArray<{ uid: string; text: string }>) =>
    items.map((b) => `${b.uid}\u0000${b.text}`).sort();
  const stable = {
    blocks: uids(taken.blocks),
    hidden: [...taken.hidden].sort(),
    pages: taken.pages.map((p) => [p.uid, p.title, p.blocks]).sort(),
    replaced: uids(taken.replaced),
    moved: uids(taken.moved),
    renames: taken.renames.map((r) => [r.uid, r.from, r.to, r.links]).sort(),
    files: taken.files.map((f) => f.url).sort(),
    changes: taken.changes ?? 0,
    unknown: taken.unknown ?? '',
  };
  return createHash('sha256').update(JSON.stringify(stable)).digest('base64url');
}

declare module '../contract/tool-definition.ts' {
  /** The write path asks it before a write; keep_change tells it the person kept things. */
  interface ServerServices {
    consent: ConsentGate;
  }
}

/**
 * One server's consent gate: each chat's memory of what it took in the window and what the person
 * declined, kept for the last MAX_CHATS chats. Made in src-mcp/process/run-server.ts with the
 * server's proposals, where a write that must be asked leaves its proposal; lent as `ctx.consent`.
 */
export class ConsentGate {
  private readonly memories = new Map<string, ChatMemory>();

  constructor(private readonly proposals: Proposals) {}

  private memoryOf(chat: string): ChatMemory {
    let memory = this.memories.get(chat);
    if (!memory) {
      if (this.memories.size >= MAX_CHATS) this.memories.delete(this.memories.keys().next().value as string);
      memory = { taken: [], declined: new Map(), allowed: new Map() };
      this.memories.set(chat, memory);
    }
    return memory;
  }

  /**
   * Before the write: returns (go ahead), or throws ConfirmationNeeded (ask by elicitation),
   * ProposalWaiting (a proposal for the approval view), NotConfirmed (declined or cancelled) or
   * ChangedSinceAsked (approved, but the graph changed since). `read` runs only when someone could
   * be asked.
   */
  async beforeWrite(
    call: GatedCall,
    confirmation: Confirmation,
    read: () => Promise<TakenAway>,
  ): Promise<void> {
    const nobody = confirmation.channel === 'none' && !confirmation.approved;
    if (nobody && !call.refusesUnasked) return;
    const taken = await read();
    const graphs = taken.graphs ?? [];
    const graph = call.graph ?? graphs.join("', '");
    if (nobody && !call.refusesUnasked?.(call.graph ? [call.graph] : graphs)) return;
    const memory = this.memoryOf(currentChat().id);
    const now = Date.now();
    memory.taken = memory.taken.filter((t) => now - t.at <= WINDOW_MS);
    const pages = pagesTakenFrom(taken);
    const passed = () => {
      memory.taken.push({ at: now, graph: graph, blocks: blocksTaken(taken) });
    };
    const allowedByPerson = () => {
      // The person saw the total: the window starts again, and their earlier no is answered.
      memory.taken = memory.taken.filter((t) => t.graph !== graph);
      for (const page of pages) memory.declined.delete(key(graph, page));
      if (taken.unknown) memory.allowed.set(key(graph, taken.unknown), now);
    };
    if (confirmation.approved) {
      if (fingerprintOf(taken) !== confirmation.approved.fingerprint) {
        settle(
          confirmation.approved,
          'changed',
          'Not done: the page changed after the person was asked. Nothing was changed.',
        );
        throw new ChangedSinceAsked(confirmation.approved);
      }
      allowedByPerson();
      return;
    }
    if (confirmation.answer === 'decline' || confirmation.answer === 'cancel') {
      // The person said no to this very call: nothing is written, whatever it takes now.
      for (const page of pages) memory.declined.set(key(graph, page), now);
      throw new NotConfirmed(call.tool, confirmation.answer);
    }
    if (!takesAnything(taken)) return;
    const fresh = (at: number | undefined) => at !== undefined && now - at <= DECLINE_MEMORY_MS;
    const declinedPages = pages.filter((page) => fresh(memory.declined.get(key(graph, page))));
    const trusted = taken.unknown !== undefined && fresh(memory.allowed.get(key(graph, taken.unknown)));
    const judged = trusted ? { ...taken, unknown: undefined } : taken;
    const windowBlocks = memory.taken.filter((t) => t.graph === graph).reduce((sum, t) => sum + t.blocks, 0);
    if (!reasonToAsk(judged, windowBlocks, declinedPages.length > 0)) return passed();
    if (confirmation.answer === 'accept') return allowedByPerson();
    const question = consentQuestion(judged, { graph, windowBlocks, declinedPages });
    if (nobody) throw nobodyToAsk(question, graph);
    if (confirmation.channel === 'elicit') throw new ConfirmationNeeded(question);
    const { proposal, code } = this.proposals.propose({
      tool: call.tool,
      args: call.args,
      graph,
      graphKey: graph,
      taken: judged,
      fingerprint: fingerprintOf(taken),
      question,
      pages,
    });
    const shownIn = confirmation.channel === 'tray' ? 'tray' : 'app';
    throw new ProposalWaiting(proposal, code, shownIn, this.proposals.trayShows());
  }

  /** The person kept things as they are (Keep in the approval view): remembered like a decline. */
  rememberKept(graphKey: string, pages: readonly string[]): void {
    const memory = this.memoryOf(currentChat().id);
    for (const page of pages) memory.declined.set(key(graphKey, page), Date.now());
  }
}
