/**
 * A waiting proposal (docs/mcp.md, "Consent before a write takes much away"): the question and
 * what would go, by page title and text (the server sends visible texts only; hidden blocks come
 * as a count), with Approve and Keep. The one-time values that answer it came with the result's
 * `_meta`; the app hands them back to the app-only tool they name and never shows them.
 */
import { cutText, outcomeForPerson } from '../../../src-shared/person-text.ts';
import { editRows } from './diff-view.ts';
import { button, element, graphText, quotedLine } from './dom.ts';
import type { Proposal } from './results.ts';

export interface ProposalActions {
  approve(): void;
  keep(): void;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
/** Items drawn per kind, and characters per text and per title: an agent's 5,000-character title stays a line. */
const LISTED = 20;
const TEXT_CHARS = 300;
const TITLE_CHARS = 80;
const OUTCOME_CHARS = 600;

const text = (value: unknown, max = TEXT_CHARS) => cutText(String(value ?? ''), max);
const title = (value: unknown) => graphText(text(value, TITLE_CHARS));

/** "+ N more" under a list cut at LISTED. */
function moreLine(total: number): HTMLElement[] {
  return total > LISTED ? [element('p', { className: 'more' }, `+ ${total - LISTED} more`)] : [];
}

function blockList(
  heading: string,
  blocks: ReadonlyArray<{ text?: unknown; page?: unknown }> | undefined,
  change: 'removed' | 'added' = 'removed',
): HTMLElement[] {
  if (!Array.isArray(blocks) || blocks.length === 0) return [];
  return [
    element('h2', {}, heading),
    element(
      'ul',
      { className: `outline ${change}` },
      ...blocks
        .slice(0, LISTED)
        .map((b) =>
          element(
            'li',
            {},
            change === 'added' ? element('ins', {}, graphText(text(b.text))) : graphText(text(b.text)),
            ...(typeof b.page === 'string'
              ? [element('span', { className: 'label' }, ' · ', title(b.page))]
              : []),
          ),
        ),
    ),
    ...moreLine(blocks.length),
  ];
}

/**
 * Each replaced text as its words before and after, what goes and what comes marked; its page
 * named where it differs from the one before.
 */
function replacedList(
  blocks: ReadonlyArray<{ text?: unknown; page?: unknown; newText?: unknown }> | undefined,
): HTMLElement[] {
  if (!Array.isArray(blocks) || blocks.length === 0) return [];
  return [
    element('h2', {}, 'Texts that are replaced'),
    element(
      'ul',
      { className: 'replaced' },
      ...blocks
        .slice(0, LISTED)
        .map((b, i, shown) =>
          element(
            'li',
            { className: 'op' },
            ...(typeof b.page === 'string' && b.page !== shown[i - 1]?.page
              ? [element('p', { className: 'label' }, 'On ', title(b.page))]
              : []),
            ...(b.newText === undefined
              ? [element('p', {}, element('del', {}, graphText(text(b.text))))]
              : editRows(text(b.text), text(b.newText))),
          ),
        ),
    ),
    ...moreLine(blocks.length),
  ];
}

export function proposalView(proposal: Proposal, actions: ProposalActions): HTMLElement {
  const { view } = proposal;
  const taken = view.taken ?? {};
  const section = element('section', { className: 'panel proposal' });
  section.setAttribute('aria-labelledby', 'proposal-heading');
  section.append(
    element('h1', { id: 'proposal-heading', tabIndex: -1 }, 'The agent asks before it goes ahead'),
    element('p', { className: 'question' }, ...quotedLine(String(view.question ?? ''))),
  );
  for (const page of taken.pages ?? [])
    section.append(
      element(
        'p',
        { className: 'op-head' },
        'Page ',
        title(page.title),
        ` goes, with ${plural(Number(page.blocks) || 0, 'block')}.`,
      ),
    );
  section.append(
    ...blockList('Blocks that go', taken.blocks),
    ...replacedList(taken.replaced),
    ...blockList('Blocks moved to another page', taken.moved),
    ...blockList('Blocks written new', taken.added, 'added'),
  );
  for (const r of taken.renames ?? [])
    section.append(
      element(
        'p',
        {},
        title(r.from),
        ' → ',
        title(r.to),
        `: ${plural(Number(r.links) || 0, 'link')} change.`,
      ),
    );
  for (const f of taken.files ?? []) {
    const shown = Number(f.shownIn?.blocks) || 0;
    const where = shown ? `; ${plural(shown, 'block')} that show it would show a broken link` : '';
    section.append(element('p', { className: 'op-head' }, 'File ', title(f.name), ` goes${where}.`));
  }
  if (taken.hidden)
    section.append(element('p', { className: 'more' }, `${plural(taken.hidden, 'hidden block')} too.`));
  const buttons = element('div', { className: 'buttons' });
  buttons.append(
    button('Approve', () => actions.approve(), { className: 'primary' }),
    button('Keep as it is', () => actions.keep()),
  );
  section.append(buttons);
  return section;
}

/** Headings for a proposal settled elsewhere (in Roam Companion, another view), by its status. */
const SETTLED_ELSEWHERE: Record<string, string> = {
  approved: 'Approved elsewhere',
  kept: 'Kept as it is, answered elsewhere',
  expired: 'Expired',
  changed: 'Not done',
  failed: 'Not done',
};

/** The proposal was settled elsewhere: what became of it, in place of its buttons. */
export function fateView(status: string, outcome: string): HTMLElement {
  const text = outcome || 'This change no longer waits for an answer. Nothing more was done here.';
  return outcomeView(text, false, SETTLED_ELSEWHERE[status] ?? 'No longer waiting');
}

/** What became of the proposal, as the server said it (the model is told the same). */
export function outcomeView(text: string, error: boolean, heading?: string): HTMLElement {
  const title =
    heading ??
    (error || text.startsWith('Not done')
      ? 'Not done'
      : text.startsWith('Kept')
        ? 'Kept as it is'
        : 'Approved');
  const section = element('section', { className: error ? 'panel error' : 'panel outcome' });
  section.setAttribute('aria-labelledby', 'outcome-heading');
  section.append(
    element('h1', { id: 'outcome-heading', tabIndex: -1 }, title),
    element(
      'p',
      { role: error ? 'alert' : 'status' },
      ...quotedLine(cutText(outcomeForPerson(text), OUTCOME_CHARS)),
    ),
  );
  return section;
}
