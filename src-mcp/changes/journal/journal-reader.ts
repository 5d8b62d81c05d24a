/**
 * Reads the journal's segments incrementally: each refresh reads only the bytes appended since
 * the last one. Only whole lines count; a line that does not parse (a torn last line of a killed
 * writer), or is not a record's shape (./record-shape.ts), is skipped and counted. A segment that
 * vanished (pruned) makes the next refresh start over.
 */
import { open, stat } from 'node:fs/promises';
import type { JournalStore } from './journal-store.ts';
import { asRecord } from './record-shape.ts';
import type { JournalRecord } from './types.ts';

interface SegmentState {
  /** Bytes consumed: up to and including the last newline read. */
  offset: number;
  records: JournalRecord[];
  skipped: number;
  /** Bytes of each entry's lines in this segment. */
  bytes: Map<string, number>;
}

export class JournalReader {
  private readonly states = new Map<string, SegmentState>();
  /** Lines that could not be read (torn, or not a record's shape), in the segments read now. */
  get skipped(): number {
    let count = 0;
    for (const state of this.states.values()) count += state.skipped;
    return count;
  }

  constructor(readonly store: JournalStore) {}

  /** Reads what was appended; returns true when anything changed. */
  async refresh(): Promise<boolean> {
    const segments = await this.store.segments();
    const present = new Set(segments);
    let changed = false;
    for (const known of [...this.states.keys()]) {
      if (!present.has(known)) {
        this.states.delete(known);
        changed = true;
      }
    }
    for (const segment of segments) changed = (await this.readSegment(segment)) || changed;
    return changed;
  }

  /** Bytes an entry's lines take in the segments read now. */
  bytesOf(id: string): number {
    let sum = 0;
    for (const state of this.states.values()) sum += state.bytes.get(id) ?? 0;
    return sum;
  }

  /** Every record, segments in name order (oldest first), lines in file order. */
  records(): JournalRecord[] {
    const names = [...this.states.keys()].sort();
    return names.flatMap((name) => (this.states.get(name) as SegmentState).records);
  }

  private async readSegment(file: string): Promise<boolean> {
    const state = this.states.get(file) ?? {
      offset: 0,
      records: [],
      skipped: 0,
      bytes: new Map<string, number>(),
    };
    this.states.set(file, state);
    const info = await stat(file).catch(() => undefined);
    if (!info || info.size <= state.offset) return false;
    const handle = await open(file, 'r').catch(() => undefined);
    if (!handle) return false;
    try {
      const length = info.size - state.offset;
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, state.offset);
      const text = buffer.subarray(0, bytesRead);
      const end = text.lastIndexOf(0x0a);
      if (end < 0) return false;
      for (const line of text.subarray(0, end).toString('utf8').split('\n')) {
        const record = parseRecord(line);
        if (record) {
          state.records.push(record);
          state.bytes.set(record.id, (state.bytes.get(record.id) ?? 0) + Buffer.byteLength(line) + 1);
        } else if (line.trim() !== '') state.skipped++;
      }
      state.offset += end + 1;
      return true;
    } finally {
      await handle.close();
    }
  }
}

function parseRecord(line: string): JournalRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    return asRecord(JSON.parse(line));
  } catch {
    return undefined;
  }
}
