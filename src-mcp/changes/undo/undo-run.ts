/**
 * One undo run on one graph, journaled like any change: a `begin` naming the entries it sets out
 * to undo, an op per reversing step (written before its writes, with the op it reverses), the
 * outcome after, and an `end` with every step's result (conflicts included, so they stay
 * visible on the entries).
 */
import { scrubTokens } from '../../../src-shared/local-api/index.ts';
import { newId } from '../../contract/chat.ts';
import type { Journal } from '../journal/journal.ts';
import type { ChatRef, JournalRecord, Op, StepResult } from '../journal/types.ts';

export interface RunInfo {
  graph: string;
  graphType?: 'hosted' | 'offline';
  chat: ChatRef;
  tool: string;
  undoes: string[];
}

export class UndoRun {
  readonly id = newId(8);
  private next = 0;

  constructor(
    private readonly journal: Journal,
    private readonly info: RunInfo,
  ) {}

  begin(): Promise<void> {
    const { graph, graphType, chat, tool, undoes } = this.info;
    return this.journal.append([
      {
        v: 1,
        k: 'begin',
        id: this.id,
        at: Date.now(),
        graph,
        ...(graphType ? { graphType } : {}),
        chat,
        tool,
        pid: process.pid,
        undoes,
      },
    ]);
  }

  /** Journals the reversing ops before their writes; returns their numbers. */
  async intent(ops: Op[], reverses: { id: string; n: number }): Promise<number[]> {
    const ns = ops.map(() => this.next++);
    const at = Date.now();
    await this.journal.append(
      ops.map((op, i): JournalRecord => ({
        v: 1,
        k: 'op',
        id: this.id,
        n: ns[i] as number,
        at,
        op,
        reverses,
      })),
    );
    return ns;
  }

  done(
    ns: number[],
    ok: boolean,
    patches: Array<Partial<Op> | undefined> = [],
    error?: string,
  ): Promise<void> {
    const items = ns.map((n, i) => ({
      n,
      ok,
      ...(error ? { error: scrubTokens(error) } : {}),
      ...(patches[i] ? { patch: patches[i] } : {}),
    }));
    return this.journal.append([{ v: 1, k: 'done', id: this.id, at: Date.now(), items }]);
  }

  end(results: StepResult[], summary: string): Promise<void> {
    const ok = !results.some((r) => r.status === 'failed');
    return this.journal.append([{ v: 1, k: 'end', id: this.id, at: Date.now(), ok, summary, results }]);
  }
}
