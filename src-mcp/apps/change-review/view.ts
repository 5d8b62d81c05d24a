/**
 * The change-review app's DOM, built with textContent only (never innerHTML: a summary is text
 * from a graph). One list of this chat's changes, each with Undo; Undo whole chat; and the panel
 * that shows an undo's dry run with the button that confirms it.
 */
import type { ChangeList, ListedChange, Shown, UndoReport } from './results.ts';

export interface ViewActions {
  /** Undo one change (`ids`) or the whole chat (undefined): the dry run first. */
  preview(ids: string[] | undefined): void;
  confirm(ids: string[] | undefined): void;
  more(offset: number): void;
  refresh(): void;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function button(label: string, onClick: () => void, extra: Partial<HTMLButtonElement> = {}) {
  return element('button', { type: 'button', onclick: onClick, ...extra }, label);
}

const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
};

/**
 * A change's line as a diff where it says one (docs/undo.md: "'before' → 'after'"): the old text
 * struck through, the new one marked as added; what was added or deleted marked so as a whole.
 */
function summaryView(summary: string, suffix = ''): HTMLParagraphElement {
  const line = element('p', { className: 'summary' });
  const arrow = summary.indexOf(' → ');
  if (arrow >= 0) {
    const left = summary.slice(0, arrow);
    const quoted = left.lastIndexOf(": '") >= 0 ? left.lastIndexOf(": '") + 2 : left.indexOf("'");
    const at = quoted >= 0 ? quoted : 0;
    line.append(
      left.slice(0, at),
      element('del', {}, left.slice(at)),
      ' → ',
      element('ins', {}, summary.slice(arrow + 3)),
      suffix,
    );
    return line;
  }
  const kind = /^(Added|Created)\b/.test(summary) ? 'ins' : /^Deleted\b/.test(summary) ? 'del' : undefined;
  line.append(kind ? element(kind, {}, summary) : summary, suffix);
  return line;
}

function changeState(change: ListedChange): string {
  if (change.undone) return 'undone';
  if (change.status && change.status !== 'applied') return change.status;
  return change.undoable ? 'applied' : 'not undoable';
}

function changeItem(change: ListedChange, actions: ViewActions): HTMLLIElement {
  const state = changeState(change);
  const head = element(
    'p',
    { className: 'meta' },
    element('span', { className: 'tool' }, change.tool),
    ` · ${change.graph} · `,
    element('time', { dateTime: change.time }, when(change.time)),
    ' ',
    element('span', { className: `badge ${state.replace(/\s/g, '-')}` }, state),
  );
  const item = element('li', { className: 'change' }, head, summaryView(change.summary));
  if (change.undoable && !change.undone)
    item.append(
      button('Undo…', () => actions.preview([change.id]), {
        ariaLabel: `Undo ${change.tool}: ${change.summary}`,
      }),
    );
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
  section.append(element('ul', { className: 'changes' }, ...list.changes.map((c) => changeItem(c, actions))));
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

function stepItem(step: UndoReport['changes'][number]['steps'][number]): HTMLLIElement {
  const conflicts = step.conflicts?.length
    ? ` (${step.conflicts.length} part(s) changed since: left alone)`
    : '';
  return element(
    'li',
    { className: `step ${step.status}` },
    `${step.detail}: ${words(step.status)}${conflicts}`,
  );
}

function reportChanges(report: UndoReport): HTMLUListElement {
  return element(
    'ul',
    { className: 'report' },
    ...report.changes.map((c) =>
      element(
        'li',
        {},
        summaryView(c.summary, ` — ${words(c.result)}`),
        element('ul', {}, ...c.steps.map(stepItem)),
      ),
    ),
  );
}

/** A dry run with its confirm button, or the outcome of an undo. */
export function reportView(report: UndoReport, ids: string[] | undefined, actions: ViewActions): HTMLElement {
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
    element('p', {}, line),
    reportChanges(report),
  );
  const buttons = element('div', { className: 'buttons' });
  if (report.dryRun && report.undone > 0)
    buttons.append(button('Undo', () => actions.confirm(ids), { className: 'primary' }));
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
