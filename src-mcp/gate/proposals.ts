/**
 * Waiting proposals (docs/mcp.md, "Consent before a write takes much away"): where the client
 * cannot ask but renders MCP Apps, a write that must be asked writes nothing and leaves a
 * proposal here; the person's Approve in the approval view calls the app-only `approve_change`
 * with the proposal's id and a one-time code. The code is made here, kept only as its hash, sent
 * only in the result's `_meta` (which hosts give the app, never the model), and is single-use,
 * expiring and bound to the chat and to what the person was shown, as sets of uids per graph
 * (src-mcp/gate/consent.ts, `coveredBy`): its write runs only while nothing more would go.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../contract/chat.ts';
import { currentChat } from '../contract/chat-scope.ts';
import type { GraphRef, PlacedBlock, TakenAway } from '../contract/taken-away.ts';
import { ToolError } from '../contract/tool-errors.ts';
import { WINDOW_MS } from './thresholds.ts';

export type ProposalStatus = 'waiting' | 'approved' | 'kept' | 'expired' | 'changed' | 'failed';

/** A file as the approval view and the tray name it: never its address (it carries a token). */
export type ShownFile = Omit<TakenAway['files'][number], 'url'>;

/** A page removed, as a person reads it: the links to it counted, not listed. */
type ShownPage = Omit<TakenAway['pages'][number], 'linkedFrom'> & {
  linkedFrom: { blocks: number; pages: string[] };
};

/** What the approval view draws: the question and what goes, visible texts only. */
export interface ProposalView {
  id: string;
  question: string;
  graph: string;
  tool: string;
  /** The client that asked, by the name it gave (initialize's clientInfo), when it gave one. */
  client?: string;
  taken: Omit<TakenAway, 'hidden' | 'files' | 'byGraph' | 'pages'> & {
    hidden: number;
    files: ShownFile[];
    pages: ShownPage[];
  };
  expiresAt: string;
}

export interface Proposal {
  id: string;
  chat: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the person was shown, each graph's part: the approved write may take no more. */
  shown: Array<{ graph: GraphRef; taken: TakenAway }>;
  question: string;
  view: ProposalView;
  at: number;
  expires: number;
  status: ProposalStatus;
  /** What became of it, in a line the model may read. */
  outcome?: string;
  /** The pages it takes from, per graph id: Keep is remembered for them. */
  pages: Array<{ graph: string; pages: string[] }>;
  codeHash: Buffer;
  wrongCodes: number;
  /** Approved and its write running (status `failed` until it settles, should it never). */
  answering?: boolean;
}

/** The app-only tools and their result `_meta` keys. */
export const APPROVE_TOOL = 'approve_change';
export const KEEP_TOOL = 'keep_change';
export const APPROVE_META = 'roam-companion/approve';
export const KEEP_META = 'roam-companion/keep';
export const PROPOSAL_META = 'roam-companion/proposal';

const LISTED_PER_KIND = 50;
/** Wrong codes a proposal takes before it is withdrawn: guessing is not a way in. */
const WRONG_CODES = 3;
const KEEP_SETTLED = 100;
/**
 * Waiting proposals a chat may hold: a flood of held writes withdraws the oldest instead of
 * growing without bound (the person answers a few, never hundreds).
 */
export const WAITING_PER_CHAT = 20;

/**
 * Roam Companion, when it shows proposals (the tray's HTTP server; docs/tray.md, "Approvals"):
 * told of each proposal as a person reads it (no uid, no code, no hidden text) and of each one
 * that closes, whoever answered; its answer runs through the registry's answerers, which hold what
 * approve_change and keep_change would be called with, inside the chat that made the proposal.
 */
export type ShownProposal = Omit<ProposalView, 'taken'> & { taken: ShownTaken };
type Unplaced<T> = Omit<T, 'uid'>;
export interface ShownTaken {
  blocks: Array<Unplaced<TakenAway['blocks'][number]>>;
  pages: Array<Unplaced<ShownPage>>;
  replaced: Array<Unplaced<TakenAway['replaced'][number]>>;
  moved: Array<Unplaced<TakenAway['moved'][number]>>;
  added?: NonNullable<TakenAway['added']>;
  renames: Array<Unplaced<TakenAway['renames'][number]>>;
  files: ShownFile[];
  hidden: number;
  changes?: number;
  unknown?: string;
}
export interface ProposalWatcher {
  proposed(proposal: ShownProposal): void;
  closed(id: string): void;
}
export type PersonAnswer = 'approve' | 'keep';
/** What became of an answer given in Roam Companion: `done` false when it changed nothing. */
export interface TrayAnswered {
  done: boolean;
  outcome: string;
}
type Answerer = (answer: PersonAnswer) => Promise<TrayAnswered>;

/** What Roam Companion is sent of a proposal: as a person reads it. */
function shownInTray(proposal: Proposal): ShownProposal {
  const strip = <T extends { uid: string }>(items: readonly T[]) =>
    items.map(({ uid: _uid, ...rest }) => rest);
  const lines = (blocks: readonly PlacedBlock[]) =>
    blocks.map(({ text, page, newText }) => ({
      text: cutForTray(text),
      ...(page === undefined ? {} : { page }),
      ...(newText === undefined ? {} : { newText: cutForTray(newText) }),
    }));
  const { taken } = proposal.view;
  return {
    ...proposal.view,
    taken: {
      ...taken,
      blocks: lines(taken.blocks),
      pages: strip(taken.pages),
      replaced: lines(taken.replaced),
      moved: lines(taken.moved),
      ...(taken.added ? { added: taken.added.map((b) => ({ ...b, text: cutForTray(b.text) })) } : {}),
      renames: strip(taken.renames),
      // Named fields only: the tray never gets a file's address, whatever the plan carries.
      files: taken.files.map(({ name, shownIn }) => ({
        name: cutForTray(name),
        shownIn: { blocks: shownIn.blocks, pages: shownIn.pages },
      })),
    },
  };
}

/** A block's first lines are what a person recognises it by; the tray is sent no more. */
const TRAY_TEXT_CHARS = 300;
const cutForTray = (text: string) =>
  text.length > TRAY_TEXT_CHARS ? `${text.slice(0, TRAY_TEXT_CHARS)}... [truncated]` : text;

const GONE =
  'This change no longer waits for an answer (answered in the chat, expired or withdrawn). Nothing more was done.';

const hash = (code: string) => createHash('sha256').update(code, 'utf8').digest();

function shown(taken: TakenAway): ProposalView['taken'] {
  const cut = <T>(items: readonly T[]) => items.slice(0, LISTED_PER_KIND);
  return {
    blocks: cut(taken.blocks),
    pages: taken.pages.map(({ linkedFrom: { blocks, pages }, ...page }) => ({
      ...page,
      linkedFrom: { blocks, pages },
    })),
    replaced: cut(taken.replaced),
    moved: cut(taken.moved),
    ...(taken.added?.length ? { added: cut(taken.added) } : {}),
    renames: taken.renames,
    files: taken.files.map(({ url: _url, ...file }) => file),
    hidden: taken.hidden.length,
    ...(taken.changes ? { changes: taken.changes } : {}),
    ...(taken.unknown ? { unknown: taken.unknown } : {}),
  };
}

const NO_SUCH =
  'No waiting proposal matches these values. Only the approval view in the chat can answer a proposal, once; nothing was changed.';

declare module '../contract/tool-definition.ts' {
  /** The approval tools, list_changes and the write path reach the server's proposals. */
  interface ServerServices {
    proposals: Proposals;
  }
}

/**
 * One server's proposals, every chat's (each proposal names its chat; every method answers for
 * the running chat only), and Roam Companion while it shows them. Made in
 * src-mcp/process/run-server.ts and lent to handlers as `ctx.proposals`.
 */
export class Proposals {
  private readonly proposals = new Map<string, Proposal>();
  private readonly answerers = new Map<string, Answerer>();
  private watcher: ProposalWatcher | undefined;

  /** Roam Companion shows proposals from now on (undefined: no longer). */
  watch(watcher: ProposalWatcher | undefined): void {
    this.watcher = watcher;
  }

  /** Whether the person can answer a proposal in Roam Companion. */
  trayShows(): boolean {
    return this.watcher !== undefined;
  }

  private closed(proposal: Proposal): void {
    this.answerers.delete(proposal.id);
    this.watcher?.closed(proposal.id);
  }

  /** The proposal goes to Roam Companion too; `answer` answers it as the approval view would. */
  offerInTray(proposal: Proposal, answer: Answerer): void {
    if (!this.watcher) return;
    this.answerers.set(proposal.id, answer);
    this.watcher.proposed(shownInTray(proposal));
  }

  /** The person answered in Roam Companion: the first answer wins; a later one changes nothing. */
  async answerInTray(id: string, answer: PersonAnswer): Promise<TrayAnswered> {
    this.expireOld();
    const run = this.answerers.get(id);
    const proposal = this.proposals.get(id);
    if (!run || proposal?.status !== 'waiting') return { done: false, outcome: proposal?.outcome ?? GONE };
    this.answerers.delete(id);
    return run(answer);
  }

  /** A new proposal for the running chat, and the one-time code that approves it. */
  propose(input: {
    tool: string;
    args: Record<string, unknown>;
    graph: string;
    taken: TakenAway;
    shown: Proposal['shown'];
    question: string;
    pages: Proposal['pages'];
  }): { proposal: Proposal; code: string } {
    this.expireOld();
    this.withdrawOldestBeyond(WAITING_PER_CHAT - 1);
    const code = randomBytes(24).toString('base64url');
    const at = Date.now();
    const id = `p-${newId(10)}`;
    const client = currentChat().client?.name;
    const proposal: Proposal = {
      id,
      chat: currentChat().id,
      tool: input.tool,
      args: input.args,
      shown: input.shown,
      question: input.question,
      view: {
        id,
        question: input.question,
        graph: input.graph,
        tool: input.tool,
        ...(client ? { client } : {}),
        taken: shown(input.taken),
        expiresAt: new Date(at + WINDOW_MS).toISOString(),
      },
      at,
      expires: at + WINDOW_MS,
      status: 'waiting',
      pages: input.pages,
      codeHash: hash(code),
      wrongCodes: 0,
    };
    this.proposals.set(id, proposal);
    return { proposal, code };
  }

  /** Leaves the running chat at most `keep` waiting proposals, withdrawing the oldest. */
  private withdrawOldestBeyond(keep: number): void {
    const chat = currentChat().id;
    const waiting = [...this.proposals.values()].filter((p) => p.chat === chat && p.status === 'waiting');
    for (const p of waiting.slice(0, Math.max(0, waiting.length - keep))) {
      p.status = 'failed';
      p.outcome = `Withdrawn: this chat made more than ${WAITING_PER_CHAT} changes that waited for an answer at once. Nothing was changed.`;
      this.closed(p);
    }
  }

  private expireOld(now = Date.now()): void {
    for (const p of this.proposals.values())
      if (p.status === 'waiting' && now > p.expires) {
        p.status = 'expired';
        p.outcome = 'Expired: the person did not answer in time. Nothing was changed.';
        this.closed(p);
      }
    const settled = [...this.proposals.values()].filter((p) => p.status !== 'waiting');
    for (const p of settled.slice(0, Math.max(0, settled.length - KEEP_SETTLED))) this.proposals.delete(p.id);
  }

  /**
   * The waiting proposal these values answer, now settled as `answering` (single use), or
   * INVALID_PARAMS: unknown, another chat's, expired, already answered, or a wrong code (each
   * answered alike; three wrong codes withdraw it).
   */
  redeem(id: unknown, code: unknown): Proposal {
    this.expireOld();
    const proposal = typeof id === 'string' ? this.proposals.get(id) : undefined;
    if (!proposal || proposal.chat !== currentChat().id || typeof code !== 'string')
      throw new ToolError('INVALID_PARAMS', NO_SUCH);
    const given = hash(code);
    if (proposal.status !== 'waiting') throw new ToolError('INVALID_PARAMS', NO_SUCH);
    if (!timingSafeEqual(given, proposal.codeHash)) {
      proposal.wrongCodes += 1;
      if (proposal.wrongCodes >= WRONG_CODES) {
        proposal.status = 'failed';
        proposal.outcome = 'Withdrawn: it was answered with wrong codes. Nothing was changed.';
        this.closed(proposal);
      }
      throw new ToolError('INVALID_PARAMS', NO_SUCH);
    }
    // Used once, whatever happens next; Roam Companion stops showing it.
    proposal.status = 'failed';
    proposal.outcome = 'Approved, but the change did not run.';
    proposal.answering = true;
    this.closed(proposal);
    return proposal;
  }

  /**
   * What became of one of the running chat's proposals, for the approval view that shows it
   * (answered in the tray or another view, expired): `answering` while an approved write runs,
   * `unknown` for an id this chat does not have (made up, another chat's, or long settled).
   */
  fate(id: string): {
    id: string;
    status: ProposalStatus | 'answering' | 'unknown';
    outcome?: string;
  } {
    this.expireOld();
    const proposal = this.proposals.get(id);
    if (!proposal || proposal.chat !== currentChat().id)
      return { id, status: 'unknown', outcome: 'This change no longer waits for an answer.' };
    if (proposal.answering) return { id, status: 'answering' };
    return { id, status: proposal.status, ...(proposal.outcome ? { outcome: proposal.outcome } : {}) };
  }

  /** The running chat's proposals, newest first, as list_changes shows them. */
  ofChat(): Array<{
    id: string;
    time: string;
    tool: string;
    question: string;
    status: ProposalStatus;
    outcome?: string;
  }> {
    this.expireOld();
    const chat = currentChat().id;
    return [...this.proposals.values()]
      .filter((p) => p.chat === chat)
      .reverse()
      .map((p) => ({
        id: p.id,
        time: new Date(p.at).toISOString(),
        tool: p.tool,
        question: p.question,
        status: p.status,
        ...(p.outcome ? { outcome: p.outcome } : {}),
      }));
  }
}

export function settle(proposal: Proposal, status: ProposalStatus, outcome: string): void {
  proposal.status = status;
  proposal.outcome = outcome;
  proposal.answering = false;
}
