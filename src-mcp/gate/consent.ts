/**
 * The one gate on the write path, by effect (docs/mcp.md, "Consent before a write takes much
 * away"). Every agent write to a graph runs holding the graph's lock (consent-ledger.ts), taken
 * for the plan's last read and the write only: the person is never asked while it is held. Under
 * it, what the call would take away (src-mcp/contract/taken-away.ts, read by the tool's `takes` or
 * handed over with update_page_markdown's plan) is added to what agents took from the graph in
 * the last WINDOW_MS, in every chat and process (the ledger), and thresholds.ts decides whether
 * the person must say yes. A yes covers what the person was shown and no more: when the plan read
 * again right before the write would take anything else, nothing is written and they are asked
 * again. A decline is remembered for the pages it would have taken from, whatever the tool and
 * the chat. No tool asks by itself.
 */
import { randomBytes } from 'node:crypto';
import { currentChat } from '../contract/chat-scope.ts';
import type { GraphRef, TakenAway } from '../contract/taken-away.ts';
import {
  nobodyToAsk,
  nobodyToAskEveryWrite,
  nobodyToAskHere,
  nobodyToAskLedgerUnusable,
  type Confirmation,
  type ConfirmPolicy,
} from './confirm.ts';
import { ConsentLedger, type LedgerRead } from './consent-ledger.ts';
import { consentQuestion, pagesTakenFrom } from './consent-question.ts';
import { changedSinceAsked, declined, type Outcome, type Reservation, type ShownPart } from './outcome.ts';
import { settle, type Proposal, type Proposals } from './proposals.ts';
import { blocksTaken, DECLINE_MEMORY_MS, reasonToAsk, takesAnything, WINDOW_MS } from './thresholds.ts';

/** The call the gate judges: which tool, on which graph. */
export interface GatedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The graph; absent for a call that names none (an undo): the parts it reads say them. */
  graph?: GraphRef;
  /**
   * Given only when a graph it may touch refuses what nobody can be asked about
   * (`whenNobodyCanAsk: "refuse"`): whether these graphs (ids) do.
   */
  refusesUnasked?: (graphs: readonly string[]) => boolean;
  /** A graph's own `confirm` (by id), when it has one: it wins over the server's policy. */
  policyOf?: (graph: string) => ConfirmPolicy | undefined;
}

const NOTHING_RESERVED: Reservation = { settle: () => Promise.resolve() };
const GO: Outcome = { kind: 'go', reservation: NOTHING_RESERVED };

const MAX_ASKED = 1000;

function partsOf(call: GatedCall, taken: TakenAway): ShownPart[] {
  if (call.graph) return [{ graph: call.graph, taken }];
  return taken.byGraph ?? [];
}

/** The pages a part takes from, by title, hidden blocks' pages included: a decline covers them. */
function pagesOf(taken: TakenAway): string[] {
  const hiddenPages = taken.hidden.flatMap((h) => (h.page ? [h.page] : []));
  return [...new Set([...pagesTakenFrom(taken), ...hiddenPages])];
}

const subset = (now: readonly string[], shown: readonly string[]) => {
  const allowed = new Set(shown);
  return now.every((u) => allowed.has(u));
};
const uids = (items: ReadonlyArray<{ uid: string }>) => items.map((i) => i.uid);
/** A block as it was shown: by uid and text (a block edited since is not what the person saw). */
const asShown = (items: ReadonlyArray<{ uid: string; text: string }>) =>
  items.map((i) => `${i.uid}\u0000${i.text}`);

/** Whether what goes now is within what the person was shown (fewer is fine), as sets. */
function within(now: TakenAway, shown: TakenAway): boolean {
  const shownPages = new Map(shown.pages.map((p) => [p.uid, p]));
  const shownRenames = new Map(shown.renames.map((r) => [r.uid, r]));
  return (
    subset(asShown(now.blocks), asShown(shown.blocks)) &&
    subset(uids(now.hidden), uids(shown.hidden)) &&
    subset(asShown(now.replaced), asShown(shown.replaced)) &&
    subset(asShown(now.moved), asShown(shown.moved)) &&
    now.pages.every((p) => {
      const was = shownPages.get(p.uid);
      return !!was && p.blocks <= was.blocks && subset(p.linkedFrom.uids, was.linkedFrom.uids);
    }) &&
    now.renames.every((r) => {
      const was = shownRenames.get(r.uid);
      return !!was && was.to === r.to && r.links <= was.links;
    }) &&
    subset(
      now.files.map((f) => f.url),
      shown.files.map((f) => f.url),
    ) &&
    (now.changes ?? 0) <= (shown.changes ?? 0) &&
    (now.unknown === undefined || now.unknown === shown.unknown)
  );
}

/** Whether every graph's part now is within that graph's part the person was shown. */
export function coveredBy(shown: readonly ShownPart[], now: readonly ShownPart[]): boolean {
  return now.every((part) => {
    if (!takesAnything(part.taken)) return true;
    const was = shown.find((s) => s.graph.id === part.graph.id);
    return !!was && within(part.taken, was.taken);
  });
}

const WHAT_IT_WRITES = ['markdown', 'string', 'text', 'title'] as const;

/**
 * The question before a write that takes nothing away, asked because the graph is set to ask
 * before every write: the tool and the first line of what it writes.
 */
function writeQuestion(call: GatedCall, graphs: readonly string[]): string {
  const written = WHAT_IT_WRITES.map((k) => call.args[k]).find((v) => typeof v === 'string' && v.trim());
  const line = typeof written === 'string' ? (written.trim().split('\n')[0] ?? '') : '';
  const shown = line ? ` ('${line.length > 60 ? `${line.slice(0, 59)}…` : line}')` : '';
  return `Let the agent run ${call.tool}${shown} in graph '${graphs.join("', '")}'? The person asked to approve every change to this graph. It can be undone from this chat.`;
}

/** A stable key for "the same call again" (the retried call carries the same arguments). */
function callKey(chat: string, call: GatedCall): string {
  const stable = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(stable)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, stable(v)]),
          )
        : value;
  return JSON.stringify([chat, call.tool, call.graph?.id ?? '', stable(call.args)]);
}

declare module '../contract/tool-definition.ts' {
  /** The write path asks it before a write; keep_change tells it the person kept things. */
  interface ServerServices {
    consent: ConsentGate;
  }
}

interface Asking {
  key: string;
  parts: ShownPart[];
  judged: Judged[];
  asking: Judged[];
  taken: TakenAway;
  now: number;
}

interface Judged {
  part: ShownPart;
  ledger: LedgerRead;
  pages: string[];
  /** What is judged: code the person allowed in this chat is not asked about again. */
  judged: TakenAway;
  windowBlocks: number;
  declinedPages: string[];
  reason: ReturnType<typeof reasonToAsk> | 'ledger' | 'every-write';
  /** The graph asks before every write. */
  everyWrite: boolean;
}

/**
 * One server's consent gate over the machine's ledgers (`folder`: the data folder's `consent/`;
 * undefined: this process only). What a chat was asked by elicitation is kept here, so the
 * retried call's yes is checked against it. Made in src-mcp/process/run-server.ts with the
 * server's proposals, where a write that must be asked leaves its proposal; lent as `ctx.consent`.
 */
export class ConsentGate {
  readonly ledger: ConsentLedger;
  /** What each chat's pending question showed, by call: its yes covers that. */
  private readonly asked = new Map<string, { parts: ShownPart[]; at: number }>();

  constructor(
    private readonly proposals: Proposals,
    folder?: string,
  ) {
    this.ledger = new ConsentLedger(folder);
  }

  /** Runs an agent's write holding these graphs' locks (ids): its last plan read and its write. */
  holding<T>(graphs: readonly string[], fn: () => Promise<T>): Promise<T> {
    return this.ledger.holding(graphs, fn);
  }

  /**
   * Before the write, holding its graphs' locks, what the gate answers (outcome.ts): go ahead with
   * the reservation of what it takes (settle it after the write); ask now or leave a proposal
   * waiting (the call's channel); refuse (nobody can be asked); or not done (declined or
   * cancelled; approved, but more would go now).
   */
  async beforeWrite(
    call: GatedCall,
    confirmation: Confirmation,
    read: () => Promise<TakenAway>,
  ): Promise<Outcome> {
    const policyOf = (graph: string) => call.policyOf?.(graph) ?? confirmation.policy;
    if (!confirmation.approved && call.graph && policyOf(call.graph.id) === 'never') return GO;
    const taken = await read();
    const parts = partsOf(call, taken);
    const chat = currentChat().id;
    const now = Date.now();
    if (confirmation.approved) {
      if (!coveredBy(confirmation.approved.shown, parts)) {
        settle(
          confirmation.approved,
          'changed',
          'Not done: the page changed after the person was asked. Nothing was changed.',
        );
        return changedSinceAsked(confirmation.approved);
      }
      await this.allowedByPerson(parts, chat, now);
      return GO;
    }
    // A graph whose policy is `never` is neither asked about nor counted.
    const judging = parts.filter((p) => policyOf(p.graph.id) !== 'never');
    if (judging.length === 0) return GO;
    const everyWrite = judging.some((p) => policyOf(p.graph.id) === 'every-write');
    const key = callKey(chat, call);
    if (confirmation.answer === 'decline' || confirmation.answer === 'cancel') {
      // The person said no to this very call: nothing is written, whatever it takes now.
      this.asked.delete(key);
      await this.remember(
        parts.map((p) => ({ graph: p.graph.id, pages: pagesOf(p.taken) })),
        now,
      );
      return declined(call.tool, confirmation.answer);
    }
    if (!takesAnything(taken) && !everyWrite) return GO;
    if (confirmation.answer === 'accept') {
      const shown = this.asked.get(key);
      this.asked.delete(key);
      if (shown && now - shown.at <= WINDOW_MS && coveredBy(shown.parts, parts)) {
        await this.allowedByPerson(parts, chat, now);
        return GO;
      }
      // A yes to something else (more goes now, or nothing was asked): judged as unanswered.
    }
    const judged = await Promise.all(
      judging.map((part) => this.judge(part, chat, now, policyOf(part.graph.id) === 'every-write')),
    );
    const asking = judged.filter((j) => j.reason !== undefined);
    if (asking.length === 0) return this.reserve(judged, chat, now);
    const unknownLedger = asking.some((j) => j.reason === 'ledger');
    const refuses =
      unknownLedger ||
      everyWrite ||
      confirmation.channel.refusesUnasked === true ||
      call.refusesUnasked?.(asking.map((j) => j.part.graph.id));
    if (!confirmation.channel.reach && !refuses) return this.reserve(judged, chat, now);
    return this.ask(call, confirmation, { key, parts, judged, asking, taken, now });
  }

  /** The person must answer first: asked now, left waiting, or refused where nobody can ask. */
  private ask(
    call: GatedCall,
    { channel }: Confirmation,
    { key, parts, judged, asking, taken, now }: Asking,
  ): Outcome {
    const taking = judged.filter((j) => takesAnything(j.part.taken));
    const question = taking.length
      ? taking.map((j) => this.questionOf(j)).join(' ')
      : writeQuestion(
          call,
          asking.map((j) => j.part.graph.nickname),
        );
    const names = asking.map((j) => j.part.graph.nickname).join("', '");
    if (!channel.reach) {
      const error = asking.some((j) => j.reason === 'ledger')
        ? nobodyToAskLedgerUnusable(question, names)
        : judged.some((j) => j.everyWrite)
          ? nobodyToAskEveryWrite(question, names)
          : channel.refusesUnasked
            ? nobodyToAskHere(question, names)
            : nobodyToAsk(question, names);
      return { kind: 'refuse', error, question };
    }
    const reached = channel.reach({
      tool: call.tool,
      question,
      shown: parts,
      trayShows: this.proposals.trayShows(),
      propose: () =>
        this.proposals.propose({
          tool: call.tool,
          args: call.args,
          graph: call.graph?.nickname ?? parts.map((p) => p.graph.nickname).join(', '),
          taken: judged.length === 1 && judged[0] ? judged[0].judged : taken,
          shown: parts,
          question,
          pages: judged.map((j) => ({ graph: j.part.graph.id, pages: j.pages })),
        }),
    });
    // The retried call's yes is checked against what this question showed.
    if (reached.kind === 'ask') this.rememberAsked(key, parts, now);
    return reached;
  }

  private async judge(part: ShownPart, chat: string, now: number, everyWrite: boolean): Promise<Judged> {
    const ledger = await this.ledger.read(part.graph.id);
    const pages = pagesOf(part.taken);
    const state = ledger.known ? ledger.state : { taken: [], declined: [], allowed: [] };
    const fresh = (at: number) => now - at <= DECLINE_MEMORY_MS;
    const declined = new Set(state.declined.filter((d) => fresh(d.at)).map((d) => d.page));
    const declinedPages = pages.filter((page) => declined.has(page));
    const { unknown } = part.taken;
    const trusted =
      unknown !== undefined &&
      state.allowed.some((a) => a.what === unknown && a.chat === chat && fresh(a.at));
    const judged = trusted ? { ...part.taken, unknown: undefined } : part.taken;
    const windowBlocks = state.taken
      .filter((t) => now - t.at <= WINDOW_MS)
      .reduce((sum, t) => sum + t.blocks, 0);
    const reason = !takesAnything(part.taken)
      ? everyWrite
        ? 'every-write'
        : undefined
      : !ledger.known
        ? 'ledger'
        : (reasonToAsk(judged, windowBlocks, declinedPages.length > 0) ??
          (everyWrite ? 'every-write' : undefined));
    return { part, ledger, pages, judged, windowBlocks, declinedPages, reason, everyWrite };
  }

  private questionOf(j: Judged): string {
    const question = consentQuestion(j.judged, {
      graph: j.part.graph.nickname,
      windowBlocks: j.windowBlocks,
      declinedPages: j.declinedPages,
    });
    if (j.ledger.known) return question;
    return `${question} What other chats took from graph '${j.part.graph.nickname}' is not known, so this is asked: its consent ledger (${this.ledger.where(j.part.graph.id)}) could not be used, as ${j.ledger.why}.`;
  }

  private rememberAsked(key: string, parts: ShownPart[], now: number): void {
    if (this.asked.size >= MAX_ASKED) this.asked.delete(this.asked.keys().next().value as string);
    this.asked.set(key, { parts, at: now });
  }

  /** Records what the write takes, before it runs; settled after it (a write cut off stays counted). */
  private async reserve(judged: Judged[], chat: string, now: number): Promise<Outcome> {
    const ref = randomBytes(6).toString('base64url');
    const counted = judged.filter((j) => blocksTaken(j.part.taken) > 0);
    for (const j of counted)
      await this.ledger.update(j.part.graph.id, (state) => {
        state.taken.push({
          at: now,
          blocks: blocksTaken(j.part.taken),
          chat: `${chat}/${ref}`,
          reserved: true,
        });
      });
    if (counted.length === 0) return GO;
    const reservation: Reservation = {
      settle: async () => {
        for (const j of counted)
          await this.ledger.update(j.part.graph.id, (state) => {
            for (const t of state.taken) if (t.chat === `${chat}/${ref}`) delete t.reserved;
          });
      },
    };
    return { kind: 'go', reservation };
  }

  /** The person saw the total: each graph's window starts again, and their earlier no is answered. */
  private async allowedByPerson(parts: ShownPart[], chat: string, now: number): Promise<void> {
    for (const { graph, taken } of parts) {
      const pages = new Set(pagesOf(taken));
      await this.ledger.update(graph.id, (state) => {
        state.taken = [];
        state.declined = state.declined.filter((d) => !pages.has(d.page));
        if (taken.unknown) state.allowed.push({ what: taken.unknown, chat, at: now });
      });
    }
  }

  /** A decline (or Keep), remembered for its pages in every chat. */
  private async remember(parts: ReadonlyArray<{ graph: string; pages: readonly string[] }>, now: number) {
    for (const { graph, pages } of parts)
      if (pages.length)
        await this.ledger.update(graph, (state) => {
          for (const page of pages) state.declined.push({ page, at: now });
        });
  }

  /** The person kept things as they are (Keep in the approval view): remembered like a decline. */
  async rememberKept(proposal: Proposal): Promise<void> {
    const now = Date.now();
    for (const part of proposal.pages) await this.holding([part.graph], () => this.remember([part], now));
  }
}
