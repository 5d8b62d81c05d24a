/**
 * The journaling of a write tool's call (src-mcp/server/tool-call.ts hands it the call's context):
 * every Local API write the handler sends goes through `call` here, which first reads what is
 * needed to reverse it (./capture.ts, at most one round trip), journals that, then writes, then
 * journals the outcome. Reads pass through untouched. Nothing is written to Roam when the
 * journal cannot be written: a change that could not be undone is not made.
 */
import { LocalApiError, scrubTokens } from '../../../src-shared/local-api/index.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { captureFor, type Hints, type Settled } from './capture.ts';
import { newId } from '../../contract/chat.ts';
import type { Journal, OpenJournal } from './journal.ts';
import { keptFiles } from './kept-files.ts';
import { encodeRecords } from './journal-store.ts';
import { sketchOf } from './sketch.ts';
import { entrySummary } from './summary.ts';
import type { ChatRef, JournalRecord, Op } from './types.ts';

/** Room kept for a write's `done` record (beyond its whole ops) and its entry's `end`. */
const DONE_AND_END_BYTES = 1024;

/** Tests only: stop the process right after the journal entry, before the write reaches Roam. */
export const STOP_BEFORE_WRITE_ENV = 'ROAM_MCP_TEST_STOP_BEFORE_WRITE';

type Call = <T = unknown>(action: string, args?: unknown[]) => Promise<T>;

export interface RecordInfo {
  graph: { name: string; type?: 'hosted' | 'offline'; nickname?: string };
  tool: string;
  hints?: Hints;
  /** Whether an action the tool calls changes graph data: those are journaled, reads pass. */
  isWrite(action: string): boolean;
  /** The chat the call runs in (the journal's undo scope, and whose quota it uses). */
  chat: ChatRef;
  /** The server's journal (./journal.ts), opened at the first write. */
  journal: OpenJournal;
}

/** Errors after which the write may still have landed in Roam. */
function mayHaveLanded(error: unknown): boolean {
  if (!(error instanceof LocalApiError)) return true;
  return ['connection-lost', 'protocol', 'cancelled'].includes(error.kind);
}

export class ToolRecord {
  readonly id = newId(8);
  private next = 0;
  private begun = false;
  private readonly ops: Op[] = [];
  /** Per op journaled as a sketch, the fields its `done` record restores. */
  private readonly unsketched = new Map<number, Partial<Op>>();

  constructor(private readonly info: RecordInfo) {}

  /** The context's `call`, journaling writes. */
  wrap(call: Call): Call {
    return (<T>(action: string, args: unknown[] = []) =>
      this.info.isWrite(action)
        ? (this.write(call, action, args) as Promise<T>)
        : call<T>(action, args)) as Call;
  }

  private async write(call: Call, action: string, args: unknown[]): Promise<unknown> {
    const journal = await this.info.journal().catch((error: unknown) => {
      throw unavailable(error);
    });
    const capture = captureFor(action, args, this.info.hints ?? {}, keptFiles(journal.store.dir).keep);
    const before = capture.read
      ? await call(capture.read.action, capture.read.args).catch((error: unknown) => {
          if (capture.read?.action === 'file.get') return undefined;
          throw error;
        })
      : undefined;
    const ops = await capture.plan(before);
    const ns = await this.intent(journal, ops);
    if (process.env[STOP_BEFORE_WRITE_ENV]) process.kill(process.pid, 'SIGKILL');
    let result: unknown;
    try {
      result = await call(action, args);
    } catch (error) {
      if (!mayHaveLanded(error))
        await this.done(
          journal,
          ns,
          ops.map(() => ({ ok: false, error: scrubTokens((error as Error).message) })),
        );
      throw error;
    }
    const confirm = capture.confirm?.(result, ops);
    // What the write made, read back (the uids of nested blocks); without it the undo is stricter.
    const made = confirm ? await call(confirm.action, confirm.args).catch(() => undefined) : undefined;
    await this.done(journal, ns, capture.settle?.(result, ops, made) ?? ops.map(() => ({ ok: true })));
    return result;
  }

  private async intent(journal: Journal, ops: Op[]): Promise<number[]> {
    const at = Date.now();
    const ns = ops.map(() => this.next++);
    const records: JournalRecord[] = [];
    if (!this.begun) records.push(this.begin(at));
    const sketches = ops.map(sketchOf);
    records.push(
      ...sketches.map(({ sketch }, i): JournalRecord => ({
        v: 1,
        k: 'op',
        id: this.id,
        n: ns[i] as number,
        at,
        op: sketch,
      })),
    );
    // What this write may add to the journal, in bytes as written: its records now, kept file
    // bytes, and later its `done` (with the whole ops once applied) and the entry's `end`.
    const now =
      encodeRecords(records).length +
      ops.reduce((sum, op) => sum + (op.kind === 'delete-file' ? (op.kept?.bytes ?? 0) : 0), 0);
    const later =
      sketches.reduce((sum, { full }) => sum + (full ? Buffer.byteLength(JSON.stringify(full)) : 0), 0) +
      DONE_AND_END_BYTES;
    const { quota } = journal;
    if (!this.begun) await quota.checkClient(this.info.chat);
    quota.checkChat(this.info.chat.id, !this.begun, now + later);
    quota.chargeChat(this.info.chat.id, !this.begun, now);
    sketches.forEach(({ full }, i) => {
      if (full) this.unsketched.set(ns[i] as number, full);
    });
    try {
      await journal.append(records);
    } catch (error) {
      throw unavailable(error);
    }
    this.begun = true;
    this.ops.push(...ops);
    return ns;
  }

  private begin(at: number): JournalRecord {
    const { graph, tool } = this.info;
    return {
      v: 1,
      k: 'begin',
      id: this.id,
      at,
      graph: graph.name,
      ...(graph.type ? { graphType: graph.type } : {}),
      ...(graph.nickname && graph.nickname !== graph.name ? { nickname: graph.nickname } : {}),
      chat: this.info.chat,
      tool,
      pid: process.pid,
    };
  }

  private async done(journal: Journal, ns: number[], settled: Settled[]): Promise<void> {
    settled.forEach((s, i) => {
      if (s.patch) this.ops[ns[i] as number] = { ...this.ops[ns[i] as number], ...s.patch } as Op;
    });
    const items = ns.map((n, i) => {
      const item: Settled = settled[i] ?? { ok: true };
      const full = this.unsketched.get(n);
      this.unsketched.delete(n);
      // Applied: the whole op follows its sketch (a refused write keeps only the sketch).
      return item.ok && full
        ? { n, ...item, patch: { ...full, ...item.patch } as Partial<Op> }
        : { n, ...item };
    });
    // The write happened: a journal that cannot say so shows it as unconfirmed.
    const done: JournalRecord[] = [{ v: 1, k: 'done', id: this.id, at: Date.now(), items }];
    journal.quota.chargeChat(this.info.chat.id, false, encodeRecords(done).length);
    await journal.append(done).catch(() => {});
  }

  /** After the handler: the entry's summary and how the call ended. */
  async finish(error?: unknown): Promise<void> {
    if (!this.begun) return;
    const journal = await this.info.journal();
    const summary = entrySummary(this.info.tool, this.ops);
    const end: JournalRecord[] = [
      {
        v: 1,
        k: 'end',
        id: this.id,
        at: Date.now(),
        ok: !error,
        summary,
        ...(error ? { error: scrubTokens(String((error as Error).message ?? error)) } : {}),
      },
    ];
    journal.quota.chargeChat(this.info.chat.id, false, encodeRecords(end).length);
    await journal.append(end).catch(() => {});
  }
}

/**
 * Where a tool put things, in a person's words, from the arguments tools share (a declaration's
 * `journalWhere` says it where these do not).
 */
export function hintsFrom(args: Record<string, unknown>): Hints {
  if (typeof args.pageTitle === 'string') return { where: `to page '${args.pageTitle}'` };
  const day = typeof args.date === 'string' ? args.date : args.dailyNotePage;
  if (day !== undefined) return { where: `to the daily note${typeof day === 'string' ? ` (${day})` : ''}` };
  if (typeof args.parentUid === 'string') return { where: `under block ${args.parentUid}` };
  return {};
}

function unavailable(error: unknown): ToolError {
  return new ToolError(
    'JOURNAL_UNAVAILABLE',
    `Nothing was changed: the change journal could not be written (${(error as Error).message}), so this change could not be undone. Check that the Roam Companion data folder is writable and the disk is not full, then retry.`,
  );
}
