/**
 * The change journal the tray reads: the machine's own (the data folder every roam-mcp writes to),
 * or `<dataDir>/journal` when the core is given a data folder (the preview and the demo keep
 * theirs in their temp HOME).
 */
import path from 'node:path';
import { Journal, JournalStore, journalOpener } from '../../../src-mcp/changes/index.ts';

export async function openActivityJournal(dataDir?: string): Promise<Journal> {
  if (!dataDir) return journalOpener()();
  const journal = new Journal(new JournalStore(path.join(dataDir, 'journal')));
  await journal.store.ensure();
  return journal;
}
