/**
 * How much one chat, and one client, may record in the journal (docs/undo.md, "A journal an
 * agent cannot flush"; docs/reliability.md): past a limit, writes are refused before they reach
 * Roam, so no chat or client can fill the disk nor, with the retention period
 * (./journal-store.ts), push out another chat's record. Bytes are charged as written (UTF-8
 * JSON lines, every record of the entry). A chat is one MCP session, served by one server: its
 * use is counted by that server's journal (`ChatQuota`). A client is every chat that gave the same name in `initialize` (stdio
 * starts a process per chat, so its use is read from the journal, over the retention floor).
 */
import { ToolError } from '../../contract/tool-errors.ts';
import type { Change, ChatRef } from './types.ts';

/** What the client check reads of its journal (./journal.ts, which imports this file). */
interface JournalRead {
  changes(): Promise<Change[]>;
  reader: { bytesOf(id: string): number };
}

export const CHAT_QUOTA = { entries: 10_000, bytes: 20 * 1024 * 1024 };
/** Per client, over the last CLIENT_WINDOW_DAYS (the journal never prunes younger records). */
export const CLIENT_QUOTA = { entries: 50_000, bytes: 100 * 1024 * 1024 };
const CLIENT_WINDOW_DAYS = 7;

/** Tests only: smaller limits, as JSON (TestLimits). */
export const TEST_LIMITS_ENV = 'ROAM_MCP_TEST_JOURNAL_LIMITS';

export interface TestLimits {
  maxBytes?: number;
  segmentBytes?: number;
  keepDays?: number;
  chatBytes?: number;
  chatEntries?: number;
  clientBytes?: number;
  clientEntries?: number;
}

export function testLimits(): TestLimits {
  const text = process.env[TEST_LIMITS_ENV];
  return text ? (JSON.parse(text) as TestLimits) : {};
}

/**
 * What each chat recorded through one journal (./journal.ts: one per server), and the checks
 * against the quotas.
 */
export class ChatQuota {
  private readonly used = new Map<string, { entries: number; bytes: number }>();

  constructor(private readonly journal: JournalRead) {}

  /**
   * Refuses a write that could take its chat past its quota (`entry`: it starts a new entry;
   * `bytes`: the most it may add to the journal), before it reaches Roam.
   */
  checkChat(chat: string, entry: boolean, bytes: number): void {
    const limits = testLimits();
    const maxEntries = limits.chatEntries ?? CHAT_QUOTA.entries;
    const maxBytes = limits.chatBytes ?? CHAT_QUOTA.bytes;
    const now = this.usage(chat);
    if ((entry && now.entries >= maxEntries) || now.bytes + bytes > maxBytes)
      throw new ToolError(
        'JOURNAL_QUOTA',
        `Nothing was changed: this chat has recorded ${now.entries} changes (${mb(now.bytes)} MB) in the change journal, and one chat may record at most ${maxEntries} changes or ${mb(maxBytes)} MB, so that every change stays undoable. Continue in a new chat; the person can review this chat's changes in Roam Companion or with 'roam-mcp changes'.`,
        { entries: now.entries, bytes: now.bytes, max_entries: maxEntries, max_bytes: maxBytes },
      );
  }

  /** Counts bytes a chat's write added to the journal (and an entry, when it began one). */
  chargeChat(chat: string, entry: boolean, bytes: number): void {
    const now = this.usage(chat);
    this.used.set(chat, { entries: now.entries + (entry ? 1 : 0), bytes: now.bytes + bytes });
  }

  private usage(chat: string) {
    return this.used.get(chat) ?? { entries: 0, bytes: 0 };
  }

  /**
   * Before a chat's first write: refuses it when the chats of the same client recorded the
   * client's quota within the window (so opening new chats does not give a client a fresh quota).
   */
  async checkClient(chat: ChatRef): Promise<void> {
    if (this.usage(chat.id).entries > 0) return;
    const limits = testLimits();
    const maxEntries = limits.clientEntries ?? CLIENT_QUOTA.entries;
    const maxBytes = limits.clientBytes ?? CLIENT_QUOTA.bytes;
    const name = chat.client?.name ?? '';
    const from = Date.now() - CLIENT_WINDOW_DAYS * 86_400_000;
    let entries = 0;
    let bytes = 0;
    for (const change of await this.journal.changes()) {
      if (change.undoes || change.chat.kind === 'person' || (change.chat.client?.name ?? '') !== name)
        continue;
      if (Date.parse(change.at) < from) continue;
      entries++;
      bytes += this.journal.reader.bytesOf(change.id) + keptBytes(change);
    }
    if (entries >= maxEntries || bytes >= maxBytes)
      throw new ToolError(
        'JOURNAL_QUOTA',
        `Nothing was changed: the chats of ${name ? `'${name}'` : 'this client'} have recorded ${entries} changes (${mb(bytes)} MB) in the change journal in the last ${CLIENT_WINDOW_DAYS} days, and one client may record at most ${maxEntries} changes or ${mb(maxBytes)} MB in that time, so that no client can crowd out the record of the others. The person can review and undo these changes in Roam Companion or with 'roam-mcp changes', and older ones stop counting as the days pass.`,
        { entries, bytes, max_entries: maxEntries, max_bytes: maxBytes, client: name },
      );
  }
}

/** File bytes the journal kept for a change's deletes. */
const keptBytes = (change: Change) =>
  change.ops.reduce((sum, { op }) => sum + (op.kind === 'delete-file' ? (op.kept?.bytes ?? 0) : 0), 0);

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
