/**
 * The journal as one object: the store (this process's appends), the reader (everyone's records),
 * the folded changes, refolded only when something was appended (or a writer may have died), and
 * what each chat recorded through it (the chat quota).
 */
import type { DataDirOptions } from '../../../src-shared/node/data-dir.ts';
import { ChatQuota, testLimits } from './chat-quota.ts';
import { foldRecords } from './journal-fold.ts';
import { JournalReader } from './journal-reader.ts';
import { JournalStore, type JournalStoreOptions } from './journal-store.ts';
import type { Change, JournalRecord } from './types.ts';

declare module '../../contract/tool-definition.ts' {
  /** Every handler may read the change journal; a write tool's call is recorded in it. */
  interface ServerServices {
    journal: OpenJournal;
  }
}

export class Journal {
  readonly reader: JournalReader;
  /** What each chat writing through this journal recorded (./chat-quota.ts). */
  readonly quota = new ChatQuota(this);
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

/** The journal, opened at the first call and the same one after. */
export type OpenJournal = () => Promise<Journal>;

/**
 * This machine's journal (`<data folder>/journal/`, the folder made then), opened at the first
 * call, not before: the server makes one opener and opens no data folder until a write or a read
 * needs it.
 */
export function journalOpener(where: DataDirOptions = {}): OpenJournal {
  let opening: Promise<Journal> | undefined;
  return () =>
    (opening ??= JournalStore.openDefault(storeLimits(), where).then(
      (store) => new Journal(store),
      (error: unknown) => {
        opening = undefined; // a data folder that could not be made now may be fixed later
        throw error;
      },
    ));
}

function storeLimits(): JournalStoreOptions {
  const { maxBytes, segmentBytes, keepDays } = testLimits();
  return {
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(segmentBytes !== undefined ? { segmentBytes } : {}),
    ...(keepDays !== undefined ? { keepDays } : {}),
  };
}
