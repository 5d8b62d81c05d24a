/**
 * A native notification when a change an agent asked for starts waiting for the person (docs/tray.md,
 * "Approvals"): the newest one's question (and how many more wait), nothing more — what goes is
 * shown in the manager (the tray) or in a box (`--mcp`, approval-boxes.ts); the text is plain and
 * bounded (src-main/core/approvals/approval-text.ts). One notification at a
 * time, however many an agent asks for; clicking it shows the waiting changes; it closes once
 * nothing waits.
 */
import { Notification } from 'electron';
import type { ProposalView } from '../../src-shared/ipc-contract.ts';
import { noticeText } from '../core/approvals/approval-text.ts';

/** What tells of the waiting changes: the tray core, or the `--mcp` launcher. */
interface WaitingChanges {
  on(event: 'proposals:changed', listener: (waiting: ProposalView[]) => void): () => void;
}

export function noticeWaitingChanges(source: WaitingChanges, showWaiting: () => void): () => void {
  if (!Notification.isSupported()) return () => {};
  let notice: Notification | undefined;
  let known = new Set<string>();
  return source.on('proposals:changed', (waiting) => {
    const fresh = waiting.filter((p) => !known.has(p.id));
    known = new Set(waiting.map((p) => p.id));
    if (waiting.length === 0) {
      notice?.close();
      notice = undefined;
      return;
    }
    const newest = fresh.at(-1);
    if (!newest) return;
    notice?.close();
    notice = new Notification(noticeText(waiting.length, newest, process.platform));
    notice.on('click', showWaiting);
    notice.show();
  });
}
