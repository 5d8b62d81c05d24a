/**
 * Where built link indexes outlive the process (docs/navigation.md, "Kept on disk"): one file per
 * graph in `<data folder>/index/` (0700; files 0600), written whole through a temp file and a
 * rename, so two processes building at once leave one complete index or the other, and a reader
 * checks every byte (index-codec.ts) before it trusts one.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { decodeIndex, encodeIndex, type GraphIdentity, type PersistedIndex } from './index-codec.ts';

/** A kept index older than this is dropped: it bounds what no freshness check sees (a moved block). */
export const MAX_KEPT_AGE_MS = 24 * 3_600_000;
/** Temp files a killed writer left behind are swept after this long. */
const ORPHAN_AGE_MS = 10 * 60_000;
const SUFFIX = '.lidx';

/** The graph's file: named by a hash, as a graph name may hold any character. */
export function keptIndexFile(dir: string, identity: GraphIdentity): string {
  const key = createHash('sha256').update(`${identity.type}\0${identity.name}`).digest('hex');
  return path.join(dir, `${key.slice(0, 32)}${SUFFIX}`);
}

export type KeptRead = { kept: PersistedIndex } | { doubt: string };

/** The graph's kept index, or why there is none to trust (missing, unreadable, another format…). */
export async function readKeptIndex(dir: string, identity: GraphIdentity, now: number): Promise<KeptRead> {
  let bytes: Buffer;
  try {
    bytes = await readFile(keptIndexFile(dir, identity));
  } catch (error) {
    return { doubt: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none kept' : String(error) };
  }
  let decoded: ReturnType<typeof decodeIndex>;
  try {
    decoded = decodeIndex(bytes, identity);
  } catch (error) {
    return { doubt: `unreadable: ${String(error)}` };
  }
  if ('doubt' in decoded) return decoded;
  const age = now - decoded.kept.builtAt;
  if (!(age >= 0 && age <= MAX_KEPT_AGE_MS)) return { doubt: 'too old or from the future' };
  return decoded;
}

export async function keepIndex(dir: string, kept: PersistedIndex): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(keptIndexFile(dir, kept.identity), encodeIndex(kept), 0o600);
  await sweepOrphans(dir);
}

/** For our own writes: the next process must not trust what this one may have made stale. */
export async function dropKeptIndex(dir: string, identity: GraphIdentity): Promise<void> {
  await unlink(keptIndexFile(dir, identity)).catch(() => {});
}

async function sweepOrphans(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith('.') || !name.endsWith('.tmp') || !name.includes(SUFFIX)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > ORPHAN_AGE_MS) await unlink(file).catch(() => {});
  }
}
