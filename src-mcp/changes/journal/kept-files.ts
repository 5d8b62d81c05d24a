/**
 * The bytes of deleted files, kept beside the journal (`journal/files/`, 0600) so the delete can
 * be taken back: named by UTC day and content hash, pruned with the journal (docs/undo.md).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../src-shared/node/atomic-write.ts';
import { FILES_DIR } from './journal-store.ts';

/** Where kept file bytes live (file_delete and upload reversals). */
export interface KeptFiles {
  keep(base64: string): Promise<string>;
  read(file: string): Promise<string | undefined>;
}

const NAME = /^\d{8}-[0-9a-f]{32}\.bin$/;

export function keptFiles(journalDir: string, now: () => number = Date.now): KeptFiles {
  const dir = path.join(journalDir, FILES_DIR);
  return {
    async keep(base64) {
      const bytes = Buffer.from(base64, 'base64');
      const day = new Date(now()).toISOString().slice(0, 10).replace(/-/g, '');
      const name = `${day}-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.bin`;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(path.join(dir, name), bytes, 0o600);
      return name;
    },
    async read(name) {
      if (!NAME.test(name)) return undefined;
      const bytes = await readFile(path.join(dir, name)).catch(() => undefined);
      return bytes?.toString('base64');
    },
  };
}
