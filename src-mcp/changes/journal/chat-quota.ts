/**
 * How much one chat may record in the journal (docs/undo.md, "A journal an agent cannot flush"):
 * past either limit its writes are refused before they reach Roam, so one chat can neither fill
 * the disk nor, with the retention period (./journal-store.ts), push out another chat's record.
 * A chat is one MCP session, served by one process: its use is counted here.
 */
import { ToolError } from '../../contract/tool-errors.ts';

export const CHAT_QUOTA = { entries: 10_000, bytes: 20 * 1024 * 1024 };

/** Tests only: smaller limits, as JSON ({maxBytes, segmentBytes, keepDays, chatBytes, chatEntries}). */
export const TEST_LIMITS_ENV = 'ROAM_MCP_TEST_JOURNAL_LIMITS';

export interface TestLimits {
  maxBytes?: number;
  segmentBytes?: number;
  keepDays?: number;
  chatBytes?: number;
  chatEntries?: number;
}

export function testLimits(): TestLimits {
  const text = process.env[TEST_LIMITS_ENV];
  return text ? (JSON.parse(text) as TestLimits) : {};
}

const used = new Map<string, { entries: number; bytes: number }>();

/**
 * Refuses a write that could take its chat past its quota (`entry`: it starts a new entry;
 * `bytes`: the most it may add to the journal), before it reaches Roam.
 */
export function checkChat(chat: string, entry: boolean, bytes: number): void {
  const limits = testLimits();
  const maxEntries = limits.chatEntries ?? CHAT_QUOTA.entries;
  const maxBytes = limits.chatBytes ?? CHAT_QUOTA.bytes;
  const now = usage(chat);
  if ((entry && now.entries >= maxEntries) || now.bytes + bytes > maxBytes)
    throw new ToolError(
      'JOURNAL_QUOTA',
      `Nothing was changed: this chat has recorded ${now.entries} changes (${mb(now.bytes)} MB) in the change journal, and one chat may record at most ${maxEntries} changes or ${mb(maxBytes)} MB, so that every change stays undoable. Continue in a new chat; the person can review this chat's changes in Roam Companion or with 'roam-mcp changes'.`,
      { entries: now.entries, bytes: now.bytes, max_entries: maxEntries, max_bytes: maxBytes },
    );
}

/** Counts what a chat's write added to the journal. */
export function chargeChat(chat: string, entry: boolean, bytes: number): void {
  const now = usage(chat);
  used.set(chat, { entries: now.entries + (entry ? 1 : 0), bytes: now.bytes + bytes });
}

const usage = (chat: string) => used.get(chat) ?? { entries: 0, bytes: 0 };

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
