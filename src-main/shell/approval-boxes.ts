/**
 * The `--mcp` app has no tray and no manager: each change an agent's write waits on is asked in a
 * native message box (docs/tray.md, "Approvals"): the question, what would go in a person's words
 * (never a uid, never hidden text), and Approve, Keep as it is, Later. One box at a time however
 * many wait (the rest counted in it); a box closes by itself (its AbortSignal) once its change no
 * longer waits: answered in the chat, expired, or its server gone. Later leaves every change that
 * waits then unasked (still answerable in the chat) until the notification asks again.
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
import type { WaitingProposals } from '../core/mcp-launcher.ts';

const BUTTONS = ['Approve', 'Keep as it is', 'Later'];
const ANSWERS = ['approve', 'keep'] as const;
/** Later is what Enter and Escape choose: a stray key press never decides. */
const LATER = 2;
/** Lines listed per kind (blocks deleted, replaced, moved; files), and characters per text, in a box. */
const LINES_PER_KIND = 8;
const LINE_CHARS = 160;

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
      new Notification({ title: 'Your answer was not applied', body: outcome }).show();
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
    message: plain(proposal.question),
    detail: [
      `Graph '${plain(proposal.graph)}' · asked by an AI client (${plain(proposal.tool)}) · nothing has changed yet.`,
      '',
      ...whatGoes(proposal.taken),
      '',
      ...(more ? [`${plural(more, 'more change waits', 'more changes wait')} for your answer.`] : []),
      `It waits until ${until}, then nothing is done. Later asks nothing more for now: what waits stays answerable in the chat, and the notification asks again.`,
    ].join('\n'),
    buttons: BUTTONS,
    defaultId: LATER,
    cancelId: LATER,
    noLink: true,
    signal,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A graph's text on one line of a native box: no control, direction or zero-width character (a
 * quoted text cannot reorder or hide the words around it), cut to a line.
 */
function plain(text: string): string {
  const line = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}...` : line;
}

/** Up to LINES_PER_KIND items of a kind under its title, the rest counted. */
function listed(title: string, items: readonly string[]): string[] {
  if (items.length === 0) return [];
  const rest = items.length - LINES_PER_KIND;
  return [
    `${title}:`,
    ...items.slice(0, LINES_PER_KIND).map((line) => `  – ${line}`),
    ...(rest > 0 ? [`  and ${rest} more`] : []),
  ];
}

/** Page titles a file's blocks are on, listed up to a few: the line stays one line. */
const PAGES_PER_FILE = 3;

/** A file by its name, and the blocks that show it (they would show a broken link). */
function fileLine(file: ProposalView['taken']['files'][number]): string {
  const { blocks, pages } = file.shownIn;
  if (blocks === 0) return `'${plain(file.name)}' (no block shows it)`;
  const more = pages.length - PAGES_PER_FILE;
  const on = [
    ...pages.slice(0, PAGES_PER_FILE).map((page) => `'${plain(page)}'`),
    ...(more > 0 ? [`${plural(more, 'more page')}`] : []),
  ].join(', ');
  return `'${plain(file.name)}' (shown in ${plural(blocks, 'block')} on ${on}, left with a broken link)`;
}

/** What would go, as the manager's approvals panel lists it. */
function whatGoes(taken: ProposalView['taken']): string[] {
  const pagesGone = new Set(taken.pages.map((p) => p.title));
  const lines = (title: string, items: ProposalView['taken']['blocks']) =>
    listed(
      title,
      items.map((item) => {
        const page = item.page && !pagesGone.has(item.page) ? ` · '${plain(item.page)}'` : '';
        return `${plain(item.text) || '(an empty block)'}${page}`;
      }),
    );
  return [
    ...taken.pages.map(
      (page) =>
        `Page deleted: '${plain(page.title)}' (${plural(page.blocks, 'block')}${page.hidden ? `, ${page.hidden} hidden` : ''}${page.linkedFrom.blocks ? `; linked from ${plural(page.linkedFrom.blocks, 'block')}` : ''})`,
    ),
    ...lines('Blocks deleted', taken.blocks),
    ...lines('Text replaced', taken.replaced),
    ...lines('Moved to another page', taken.moved),
    ...taken.renames.map(
      (r) => `Page renamed: '${plain(r.from)}' → '${plain(r.to)}' (${plural(r.links, 'link')} rewritten)`,
    ),
    ...listed(`${plural(taken.files.length, 'file')} deleted from Roam`, taken.files.map(fileLine)),
    ...(taken.hidden > 0 ? [`${plural(taken.hidden, 'hidden block')} (not shown to AI)`] : []),
    ...(taken.changes ? [`Takes back ${plural(taken.changes, 'change')}`] : []),
    ...(taken.unknown
      ? [`Runs code whose effects are unknown and cannot be undone: ${plain(taken.unknown)}`]
      : []),
  ];
}
