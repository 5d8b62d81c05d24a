/**
 * The journal as one object: the store (this process's appends), the reader (everyone's records)
 * and the folded changes, refolded only when something was appended (or a writer may have died).
 */
import { testLimits } from './chat-quota.ts';
import { foldRecords } from './journal-fold.ts';
import { JournalReader } from './journal-reader.ts';
import { JournalStore, type JournalStoreOptions } from './journal-store.ts';
import type { Change, JournalRecord } from './types.ts';

export class Journal {
  readonly reader: JournalReader;
  private folded: Change[] | undefined;

  constructor(readonly store: JournalStore) {
    this.reader = new JournalReader(store);
  }

  append(records: JournalRecord[]): Promise<void> {
    return this.store.append(records);
  }

  /**
   * Every change on this machine, oldest first. Calls run one after another: two overlapping
   * refreshes would read the same bytes twice, or the second would find nothing new and answer
   * the fold from before the first one's records.
   */
  changes(): Promise<Change[]> {
    const next = this.queue.then(() => this.refold());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private queue: Promise<unknown> = Promise.resolve();

  private async refold(): Promise<Change[]> {
    const changed = await this.reader.refresh();
    const waiting = this.folded?.some((c) => c.status === 'pending');
    if (changed || waiting || !this.folded) this.folded = foldRecords(this.reader.records());
    return this.folded;
  }
}

let shared: Promise<Journal> | undefined;

/** This machine's journal (`<data folder>/journal/`), opened once per process. */
export function defaultJournal(options: JournalStoreOptions = {}): Promise<Journal> {
  shared ??= JournalStore.openDefault({ ...storeLimits(), ...options }).then(
    (store) => new Journal(store),
    (error: unknown) => {
      shared = undefined; // a data folder that could not be made now may be fixed later
      throw error;
    },
  );
  return shared;
}

function storeLimits(): JournalStoreOptions {
  const { maxBytes, segmentBytes, keepDays } = testLimits();
  return {
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(segmentBytes !== undefined ? { segmentBytes } : {}),
    ...(keepDays !== undefined ? { keepDays } : {}),
  };
}
