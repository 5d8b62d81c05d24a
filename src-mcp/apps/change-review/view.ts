/**
 * The change-review app's DOM, built with textContent only (never innerHTML: a summary is text
 * from a graph). One list of this chat's changes, each with Undo; Undo whole chat; and the panel
 * that shows an undo's dry run with the button that confirms it.
 */
import { agentText } from './conflict-text.ts';
import { conflictView, opHeadline, opView } from './diff-view.ts';
import { button, element, graphText, quotedLine } from './dom.ts';
import type { AppChange, ChangeList, Described, ListedChange, Shown, UndoReport } from './results.ts';

export interface ViewActions {
  /** Undo one change (`ids`) or the whole chat (undefined): the dry run first. */
  preview(ids: string[] | undefined): void;
  /** Undo exactly these changes, the ones the dry run showed. */
  confirm(ids: string[]): void;
  more(offset: number): void;
  refresh(): void;
}

const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
};

/** A change's ops as diffs; its summary line when the server sent none (an older roam-mcp). */
function changeBody(change: AppChange | undefined, summary: string, id: string): HTMLDivElement {
  const ops = change?.ops ?? [];
  return element(
    'div',
    { className: 'ops', id },
    ...(ops.length ? ops.map(opView) : [element('p', { className: 'summary' }, ...quotedLine(summary))]),
  );
}

/** The change in a few words, for its Undo button's name. */
function headline(change: AppChange | undefined, summary: string): string {
  const [first, ...rest] = change?.ops ?? [];
  if (!first) return summary;
  return rest.length ? `${opHeadline(first)} (+${rest.length} more)` : opHeadline(first);
}

function changeState(change: ListedChange): string {
  if (change.undone) return 'undone';
  if (change.status && change.status !== 'applied') return change.status;
  return change.undoable ? 'applied' : 'not undoable';
}

function changeItem(
  change: ListedChange,
  described: AppChange | undefined,
  index: number,
  actions: ViewActions,
): HTMLLIElement {
  const state = changeState(change);
  const head = element(
    'p',
    { className: 'meta' },
    element('span', { className: 'tool' }, change.tool),
    ' · ',
    graphText(change.graph),
    ' · ',
    element('time', { dateTime: change.time }, when(change.time)),
    ' ',
    element('span', { className: `badge ${state.replace(/\s/g, '-')}` }, state),
  );
  const id = `change-${index}`;
  const item = element('li', { className: 'change' }, head, changeBody(described, change.summary, id));
  if (change.undoable && !change.undone) {
    const undo = button('Undo…', () => actions.preview([change.id]), {
      ariaLabel: `Undo ${change.tool}: ${headline(described, change.summary)}`,
    });
    undo.setAttribute('aria-describedby', id);
    item.append(undo);
  }
  return item;
}

export function listView(list: ChangeList, actions: ViewActions): HTMLElement {
  const section = element('section');
  const heading = element('h1', { id: 'changes-heading' }, `Changes in this chat (${list.total})`);
  section.setAttribute('aria-labelledby', 'changes-heading');
  section.append(heading);
  if (list.changes.length === 0) {
    section.append(element('p', { className: 'empty' }, 'This chat has not changed anything in Roam.'));
    return section;
  }
  const undoable = list.changes.some((c) => c.undoable && !c.undone);
  if (undoable)
    section.append(button('Undo whole chat…', () => actions.preview(undefined), { className: 'all' }));
  section.append(
    element(
      'ul',
      { className: 'changes' },
      ...list.changes.map((c, i) => changeItem(c, own(list.described, c.id), i, actions)),
    ),
  );
  if (list.nextOffset !== undefined) {
    const next = list.nextOffset;
    section.append(button('Show more', () => actions.more(next)));
  }
  return section;
}

/** undo_changes' result and step words (docs/undo.md) as a person reads them. */
const WORDS: Record<string, string> = {
  'would-undo': 'would be undone',
  undone: 'undone',
  'partly-undone': 'partly undone',
  conflict: 'changed since by someone else: left alone',
  'already-undone': 'already undone',
  'not-undoable': 'cannot be undone',
  'nothing-to-undo': 'nothing to undo',
  failed: 'failed',
};
const words = (status: string) => WORDS[status] ?? status;

function stepItem(
  step: UndoReport['changes'][number]['steps'][number],
  index: number,
  described: AppChange | undefined,
): HTMLLIElement {
  const conflicts = step.conflicts?.length
    ? ` (${step.conflicts.length} part(s) changed since: left alone)`
    : '';
  const item = element('li', { className: `step ${step.status}` });
  // The dry run found the block edited since: what the agent wrote beside what is there now.
  const extra = described?.steps?.[index];
  const op = described?.ops.find((o) => o.n === extra?.n);
  const wrote = op && agentText(op);
  if (typeof extra?.now === 'string' && typeof wrote === 'string')
    item.append('Someone edited it since: it stays as it is now.', conflictView(wrote, extra.now));
  else item.append(...quotedLine(step.detail), `: ${words(step.status)}${conflicts}`);
  return item;
}

const TAKEN_BACK = new Set(['would-undo', 'partly-undone']);

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

function reportChanges(report: UndoReport): HTMLUListElement {
  return element(
    'ul',
    { className: 'report' },
    ...report.changes.map((c, i) => {
      const described = own(report.described, c.id);
      return element(
        'li',
        {},
        changeBody(described, c.summary, `report-${i}`),
        element('p', { className: 'result' }, sentence(words(c.result))),
        element('ul', { className: 'steps' }, ...c.steps.map((s, k) => stepItem(s, k, described))),
      );
    }),
  );
}

const own = (described: Described, id: string): AppChange | undefined =>
  Object.hasOwn(described, id) ? described[id] : undefined;

/** A dry run with its confirm button, or the outcome of an undo (`stopped`: why it ended early). */
export function reportView(
  report: UndoReport,
  ids: string[] | undefined,
  actions: ViewActions,
  stopped?: string,
): HTMLElement {
  const what =
    ids === undefined ? 'the whole chat' : ids.length === 1 ? 'this change' : `${ids.length} changes`;
  const title = report.dryRun ? `Undo ${what}?` : 'Undone';
  const section = element('section', { className: report.dryRun ? 'panel dry-run' : 'panel outcome' });
  section.setAttribute('aria-labelledby', 'report-heading');
  const conflicts =
    report.conflicts > 0 ? ` ${report.conflicts} part(s) someone changed since will be left alone.` : '';
  const line = report.dryRun
    ? `Would take back ${report.undone} change(s).${conflicts}`
    : `Took back ${report.undone} change(s).${conflicts}`;
  section.append(
    element('h1', { id: 'report-heading', tabIndex: -1 }, title),
    ...(stopped ? [element('p', { role: 'alert', className: 'stopped' }, stopped)] : []),
    element('p', {}, line),
    reportChanges(report),
  );
  const buttons = element('div', { className: 'buttons' });
  // Exactly the changes this dry run showed being taken back, not "the whole chat" again.
  const shown = report.changes.filter((c) => TAKEN_BACK.has(c.result)).map((c) => c.id);
  if (report.dryRun && report.undone > 0)
    buttons.append(button('Undo', () => actions.confirm(ids ?? shown), { className: 'primary' }));
  buttons.append(button(report.dryRun ? 'Keep' : 'Back to changes', () => actions.refresh()));
  section.append(buttons);
  return section;
}

export function messageView(shown: Extract<Shown, { kind: 'message' }>, actions: ViewActions): HTMLElement {
  return element(
    'section',
    { className: shown.error ? 'panel error' : 'panel' },
    element('p', { role: shown.error ? 'alert' : 'status' }, shown.text || 'Nothing to show.'),
    button('Back to changes', () => actions.refresh()),
  );
}
