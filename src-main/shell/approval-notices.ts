/**
 * A native notification for each change an agent asked for that waits for the person (docs/tray.md,
 * "Approvals"): its question, nothing more (what goes is shown in the manager). Clicking it opens
 * the manager on the waiting changes; one answered or gone meanwhile closes its notification.
 */
import { Notification } from 'electron';
import type { ProposalView } from '../../src-shared/ipc-contract.ts';
import type { TrayCore } from '../core/tray-core.ts';

export function noticeWaitingChanges(trayCore: Pick<TrayCore, 'on'>, showWaiting: () => void): () => void {
  if (!Notification.isSupported()) return () => {};
  const shown = new Map<string, Notification>();
  return trayCore.on('proposals:changed', (waiting: ProposalView[]) => {
    for (const [id, notice] of shown)
      if (!waiting.some((p) => p.id === id)) {
        notice.close();
        shown.delete(id);
      }
    for (const proposal of waiting) {
      if (shown.has(proposal.id)) continue;
      const notice = new Notification({
        title: 'An AI client asks before a change',
        body: proposal.question,
      });
      notice.on('click', showWaiting);
      notice.show();
      shown.set(proposal.id, notice);
    }
  });
}
