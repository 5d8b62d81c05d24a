/**
 * The `--mcp` app has no tray and no manager: each change an agent's write waits on is asked in a
 * native message box (docs/tray.md, "Approvals"): the question, what would go and come in a
 * person's words (never a uid, never hidden text; shaped by src-main/core/approvals/approval-text.ts), and
 * Approve, Keep as it is, Later. One box at a time however many wait (the rest counted in it); a
 * box closes by itself (its AbortSignal) once its change no longer waits: answered in the chat,
 * expired, or its server gone. Later leaves every change that waits then unasked (still
 * answerable in the chat) until the notification asks again.
 *
 * The box hangs on a small window of its own: without a parent, macOS runs it synchronously (the
 * launcher's IPC with the child would stall, and the signal is ignored) and Linux may hand its
 * answer back late.
 */
import {
  BrowserWindow,
  Notification,
  dialog,
  type BrowserWindowConstructorOptions,
  type MessageBoxOptions,
} from 'electron';
import type { ProposalView } from '../../src-shared/ipc-contract.ts';
import { boxText, noticeBody } from '../core/approvals/approval-text.ts';
import type { WaitingProposals } from '../core/clients/mcp-launcher.ts';

const BUTTONS = ['Approve', 'Keep as it is', 'Later'];
const ANSWERS = ['approve', 'keep'] as const;
/** Later is what Enter and Escape choose: a stray key press never decides. */
const LATER = 2;

const WINDOW: BrowserWindowConstructorOptions = {
  width: 440,
  height: 120,
  show: false,
  title: 'Roam Companion: a change waits for your answer',
  resizable: false,
  minimizable: false,
  maximizable: false,
  fullscreenable: false,
  // It shows nothing of its own: no page, no script.
  webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
};

export interface ApprovalBoxes {
  /** Ask again about the changes put off with Later (the notification was clicked). */
  askAgain(): void;
}

export function askInBoxes(proposals: WaitingProposals, log: (line: string) => void): ApprovalBoxes {
  let open: { id: string; controller: AbortController } | undefined;
  let window: BrowserWindow | undefined;
  /** Answered here (the answer is on its way) or put off with Later: not asked again. */
  const answered = new Set<string>();
  const putOff = new Set<string>();

  const closeWindow = () => {
    const closing = window;
    window = undefined;
    if (closing && !closing.isDestroyed()) closing.destroy();
  };
  const parent = () => {
    if (window && !window.isDestroyed()) return window;
    const opened = new BrowserWindow(WINDOW);
    // Closed by the person: as Later for everything waiting.
    opened.on('closed', () => {
      if (window !== opened) return;
      window = undefined;
      for (const p of proposals.list()) putOff.add(p.id);
      open?.controller.abort();
    });
    opened.show();
    return (window = opened);
  };
  const tell = (outcome: string) => {
    log(`the answer was not applied: ${outcome}`);
    if (Notification.isSupported())
      new Notification({
        title: 'Your answer was not applied',
        body: noticeBody(outcome, process.platform),
      }).show();
  };

  const ask = async (): Promise<void> => {
    if (open) return;
    const waiting = proposals.list().filter((p) => !answered.has(p.id));
    const proposal = waiting.find((p) => !putOff.has(p.id));
    if (!proposal) return closeWindow();
    const controller = new AbortController();
    open = { id: proposal.id, controller };
    let response = LATER;
    try {
      const options = boxOptions(proposal, waiting.length - 1, controller.signal);
      ({ response } = await dialog.showMessageBox(parent(), options));
    } catch (error) {
      log(`could not ask about a waiting change: ${(error as Error).message}`);
    }
    open = undefined;
    const answer = ANSWERS[response];
    if (controller.signal.aborted) {
      // Answered elsewhere, expired, or the window closed: nothing to answer here.
    } else if (answer) {
      answered.add(proposal.id);
      proposals.answer(proposal.id, answer).then(
        (result) => (result.done ? undefined : tell(result.outcome)),
        (error: Error) => tell(error.message),
      );
    } else for (const p of proposals.list()) putOff.add(p.id);
    return ask();
  };

  proposals.on('proposals:changed', (waiting) => {
    const ids = new Set(waiting.map((p) => p.id));
    for (const kept of [answered, putOff]) for (const id of kept) if (!ids.has(id)) kept.delete(id);
    if (open && !ids.has(open.id)) open.controller.abort();
    void ask();
  });

  return {
    askAgain() {
      putOff.clear();
      window?.focus();
      void ask();
    },
  };
}

function boxOptions(proposal: ProposalView, more: number, signal: AbortSignal): MessageBoxOptions {
  const until = new Date(proposal.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return {
    type: 'question',
    title: 'A change waits for your answer',
    ...boxText(proposal, more, until),
    buttons: BUTTONS,
    defaultId: LATER,
    cancelId: LATER,
    noLink: true,
    signal,
  };
}
