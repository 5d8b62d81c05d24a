/**
 * What agents took from each graph and what the person declined, shared by every roam-mcp on this
 * machine (docs/mcp.md, "Consent before a write takes much away"): one small file per graph in
 * the data folder (`consent/<hash of the graph id>.json`, 0600), read and written only while its
 * lock is held (src-shared/node/file-lock.ts). The same lock is the graph's write lock: every
 * agent write to the graph holds it for the plan's last read and the write, never while the person
 * is asked. A graph whose ledger cannot be locked or read is `unknown`: the gate then asks (or
 * refuses where nobody can ask); a file that is not ours is never replaced.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { withFileLock } from '../../src-shared/node/file-lock.ts';
import { DECLINE_MEMORY_MS, WINDOW_MS } from './thresholds.ts';

/** What one graph's ledger holds. */
export interface LedgerState {
  /** Blocks taken, per write: `reserved` until its write settled (a write cut off stays counted). */
  taken: Array<{ at: number; blocks: number; chat: string; reserved?: true }>;
  /** Pages whose change the person declined (or kept), in any chat. */
  declined: Array<{ page: string; at: number }>;
  /** Code with unknown effects the person allowed, per chat. */
  allowed: Array<{ what: string; chat: string; at: number }>;
}

export type LedgerRead = { known: true; state: LedgerState } | { known: false; why: string };

const VERSION = 1;
/** Entries kept per list: a ledger stays small whatever a flood of calls does. */
const MAX_ENTRIES = 500;

const empty = (): LedgerState => ({ taken: [], declined: [], allowed: [] });

/** A copy its holder may change: the entries are flat, so copying each is a deep copy. */
const copyOf = (state: LedgerState): LedgerState => ({
  taken: state.taken.map((t) => ({ ...t })),
  declined: state.declined.map((d) => ({ ...d })),
  allowed: state.allowed.map((a) => ({ ...a })),
});

function pruned(state: LedgerState, now = Date.now()): LedgerState {
  const recent = <T extends { at: number }>(items: T[], ms: number) =>
    items.filter((i) => now - i.at <= ms).slice(-MAX_ENTRIES);
  return {
    taken: recent(state.taken, WINDOW_MS),
    declined: recent(state.declined, DECLINE_MEMORY_MS),
    allowed: recent(state.allowed, DECLINE_MEMORY_MS),
  };
}

const isEntryList = <T>(value: T[] | undefined): value is T[] =>
  Array.isArray(value) &&
  value.every((v) => typeof v === 'object' && v !== null && typeof (v as { at?: unknown }).at === 'number');

/** The ledger's content, or why it is not one of ours for this graph. */
function parse(text: string, graph: string): LedgerRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { known: false, why: 'it is not valid JSON' };
  }
  const v = value as Partial<LedgerState> & { version?: unknown; graph?: unknown };
  if (v?.version !== VERSION || v.graph !== graph)
    return { known: false, why: 'it is not a ledger of this graph' };
  const { taken, declined, allowed } = v;
  if (!isEntryList(taken) || !isEntryList(declined) || !isEntryList(allowed))
    return { known: false, why: 'its entries are not what a ledger holds' };
  return { known: true, state: pruned({ taken, declined, allowed }) };
}

/**
 * Per graph id, within one holder's async context: held, or why it could not be locked, and the
 * ledger as it stands while held (read once, then what this holder wrote): nobody else writes it
 * while the lock is held, so the judge's read, the reservation and the settle read the disk once.
 */
type Holding = Map<string, { unlockable?: string; state?: LedgerState }>;

/**
 * The ledgers of one folder (`undefined`: kept in this process only, for a server made without a
 * data folder, e.g. a test's handler context). Within a process the holders of a graph queue up;
 * across processes the file lock serializes them.
 */
export class ConsentLedger {
  private readonly held = new AsyncLocalStorage<Holding>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly memory = new Map<string, LedgerState>();

  constructor(private readonly folder: string | undefined) {}

  private fileOf(graph: string): string {
    const name = createHash('sha256').update(graph, 'utf8').digest('hex').slice(0, 32);
    return path.join(this.folder ?? '', `${name}.json`);
  }

  /** Where a graph's ledger is, for a message. */
  where(graph: string): string {
    return this.folder ? this.fileOf(graph) : 'this process';
  }

  /**
   * Runs `fn` holding each graph's lock, taken in a fixed order (two writers never wait on each
   * other) and only once per async context (a nested holder of the same graph goes straight on).
   * A graph whose lock cannot be taken is still run, marked unknown: its reads say why.
   */
  async holding<T>(graphs: readonly string[], fn: () => Promise<T>): Promise<T> {
    const outer = this.held.getStore();
    const wanted = [...new Set(graphs)].filter((g) => !outer?.has(g)).sort();
    const holding: Holding = new Map(outer);
    const take = async (i: number): Promise<T> => {
      const graph = wanted[i];
      if (graph === undefined) return this.held.run(holding, fn);
      return this.queued(graph, () => this.locked(graph, holding, () => take(i + 1)));
    };
    return take(0);
  }

  private queued<T>(graph: string, fn: () => Promise<T>): Promise<T> {
    const before = this.queues.get(graph) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const settled = run.catch(() => {});
    this.queues.set(graph, settled);
    void settled.then(() => {
      if (this.queues.get(graph) === settled) this.queues.delete(graph);
    });
    return run;
  }

  private async locked<T>(graph: string, holding: Holding, fn: () => Promise<T>): Promise<T> {
    if (!this.folder) {
      holding.set(graph, {});
      return fn();
    }
    const file = this.fileOf(graph);
    let ran = false;
    const run = () => {
      ran = true;
      holding.set(graph, {});
      return fn();
    };
    try {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      return await withFileLock(file, `the consent ledger ${file} stayed locked by another roam-mcp`, run);
    } catch (error) {
      if (ran) throw error;
      holding.set(graph, { unlockable: `it could not be locked (${(error as Error).message})` });
      return fn();
    }
  }

  /** The graph's ledger, read while holding it (else unknown). */
  async read(graph: string): Promise<LedgerRead> {
    const held = this.held.getStore()?.get(graph);
    if (!held) return { known: false, why: 'it was read without its lock' };
    if (held.unlockable) return { known: false, why: held.unlockable };
    if (!this.folder) return { known: true, state: pruned(this.memory.get(graph) ?? empty()) };
    if (held.state) return { known: true, state: pruned(copyOf(held.state)) };
    let text: string;
    try {
      text = await readFile(this.fileOf(graph), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { known: true, state: empty() };
      return {
        known: false,
        why: `it could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    const read = parse(text, graph);
    if (read.known) held.state = copyOf(read.state);
    return read;
  }

  /** Changes the graph's ledger while holding it; an unknown ledger is left as it is (false). */
  async update(graph: string, change: (state: LedgerState) => void): Promise<boolean> {
    const read = await this.read(graph);
    if (!read.known) return false;
    const state = read.state;
    change(state);
    const next = pruned(state);
    if (!this.folder) {
      this.memory.set(graph, next);
      return true;
    }
    const held = this.held.getStore()?.get(graph);
    try {
      await writeFileAtomic(this.fileOf(graph), JSON.stringify({ version: VERSION, graph, ...next }));
      if (held) held.state = next;
      return true;
    } catch {
      // What the file holds now is read again.
      if (held) delete held.state;
      return false;
    }
  }

  /** Runs `fn` holding one graph's ledger and changes it (keep_change's decline). */
  change(graph: string, change: (state: LedgerState) => void): Promise<boolean> {
    return this.holding([graph], () => this.update(graph, change));
  }
}
