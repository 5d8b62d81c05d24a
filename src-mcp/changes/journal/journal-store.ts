/**
 * The journal's files (docs/undo.md, "Where and how long"): `<data folder>/journal/`, 0700, one
 * JSON record per line in segment files, 0600.
 *
 * Many writers, no lock: each process appends only to its own segment (named by UTC day, start
 * time, pid), so lines from two processes never interleave, whatever their size (O_APPEND alone
 * is atomic only up to PIPE_BUF, and a deleted page's snapshot is far bigger). Within a process
 * appends are queued. Readers merge every segment. A process killed mid-line leaves a torn last
 * line without its newline: readers skip it, and nobody appends after it (a new process starts a
 * new segment; a failed append abandons the segment).
 *
 * Bounded: segments (and kept file bytes) older than `maxAgeDays` go, then the oldest until the
 * folder is under `maxBytes`, but never a file younger than `keepDays`: one chat (bounded by its
 * quota, ./chat-quota.ts) cannot push another chat's recent changes out. Whole files only, never a
 * rewrite. Pruned on a writer's first append and when it starts a new segment.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ensureDataSubdir, type DataDirOptions } from '../../../src-shared/node/data-dir.ts';
import type { JournalRecord } from './types.ts';

export const JOURNAL_DIR = 'journal';
export const FILES_DIR = 'files';
export const DEFAULT_MAX_AGE_DAYS = 30;
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
/** Nothing younger is ever pruned to make room (the retention period). */
export const DEFAULT_KEEP_DAYS = 7;
/** A writer starts a new segment past this size, so pruning can drop old records in pieces. */
const SEGMENT_BYTES = 16 * 1024 * 1024;
const DAY_MS = 86_400_000;
const SEGMENT = /^(\d{8})-(\d{6})-(\d+)-[0-9a-f]{6}\.jsonl$/;

export interface JournalStoreOptions {
  maxAgeDays?: number;
  maxBytes?: number;
  keepDays?: number;
  segmentBytes?: number;
  now?: () => number;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
const utcTime = (ms: number) => new Date(ms).toISOString().slice(11, 19).replace(/:/g, '');

export function isSegmentName(name: string): boolean {
  return SEGMENT.test(name);
}

export class JournalStore {
  private segment: { file: string; handle: FileHandle; day: string; bytes: number } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    readonly dir: string,
    private readonly options: JournalStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The journal in this machine's data folder (created 0700 when missing). */
  static async openDefault(
    options: JournalStoreOptions = {},
    where: DataDirOptions = {},
  ): Promise<JournalStore> {
    return new JournalStore(await ensureDataSubdir(JOURNAL_DIR, where), options);
  }

  /** Appends records as whole lines in one write; resolves once the OS has them. */
  append(records: JournalRecord[]): Promise<void> {
    const data = encodeRecords(records);
    const next = this.queue.then(() => this.write(data));
    this.queue = next.catch(() => {});
    return next;
  }

  /** Creates the folder (0700) if missing. */
  async ensure(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  /** The segment this process writes to, if it has written. */
  currentSegment(): string | undefined {
    return this.segment?.file;
  }

  private async write(data: Buffer): Promise<void> {
    const segment = await this.writable();
    try {
      await segment.handle.appendFile(data);
      segment.bytes += data.length;
    } catch (error) {
      // A partial line may be in the file now: never append after it.
      this.segment = undefined;
      await segment.handle.close().catch(() => {});
      throw error;
    }
  }

  private async writable() {
    const now = this.now();
    const day = utcDay(now);
    const current = this.segment;
    if (current && current.day === day && current.bytes < (this.options.segmentBytes ?? SEGMENT_BYTES))
      return current;
    if (current) await current.handle.close().catch(() => {});
    const name = `${day}-${utcTime(now)}-${process.pid}-${randomBytes(3).toString('hex')}.jsonl`;
    const file = path.join(this.dir, name);
    await this.ensure();
    const handle = await open(file, 'a', 0o600);
    this.segment = { file, handle, day, bytes: 0 };
    await this.prune().catch(() => {});
    return this.segment;
  }

  /** Closes this process's segment (tests; the process exiting does the same). */
  async close(): Promise<void> {
    await this.queue;
    await this.segment?.handle.close().catch(() => {});
    this.segment = undefined;
  }

  /** Segment paths, oldest first. */
  async segments(): Promise<string[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    return names
      .filter(isSegmentName)
      .sort()
      .map((name) => path.join(this.dir, name));
  }

  /** Drops what is older than maxAgeDays, then the oldest older than keepDays until under maxBytes. */
  async prune(): Promise<{ removed: string[] }> {
    const maxAge = (this.options.maxAgeDays ?? DEFAULT_MAX_AGE_DAYS) * DAY_MS;
    const keep = (this.options.keepDays ?? DEFAULT_KEEP_DAYS) * DAY_MS;
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    const files = await this.prunable();
    const cutoff = this.now() - maxAge;
    const kept = this.now() - keep;
    const removed: string[] = [];
    let total = files.reduce((sum, f) => sum + f.size, 0);
    for (const file of files) {
      if (file.path === this.segment?.file) continue;
      if (file.mtimeMs >= cutoff && (total <= maxBytes || file.mtimeMs >= kept)) continue;
      if (
        await unlink(file.path).then(
          () => true,
          () => false,
        )
      )
        removed.push(file.path);
      total -= file.size;
    }
    return { removed };
  }

  /** Segments and kept file bytes, oldest first. */
  private async prunable(): Promise<Array<{ path: string; size: number; mtimeMs: number }>> {
    const kept = path.join(this.dir, FILES_DIR);
    const keptNames = await readdir(kept).catch(() => [] as string[]);
    const paths = [...(await this.segments()), ...keptNames.map((name) => path.join(kept, name))];
    const infos = await Promise.all(
      paths.map(async (p) => {
        const info = await stat(p).catch(() => undefined);
        return info?.isFile() ? { path: p, size: info.size, mtimeMs: info.mtimeMs } : undefined;
      }),
    );
    return infos.filter((i) => i !== undefined).sort((a, b) => a.mtimeMs - b.mtimeMs);
  }
}

/** Records as they are written: one JSON line each, UTF-8 (what the quotas charge, byte for byte). */
export function encodeRecords(records: readonly JournalRecord[]): Buffer {
  return Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8');
}
