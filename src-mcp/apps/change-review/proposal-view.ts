/**
 * A waiting proposal (docs/mcp.md, "Consent before a write takes much away"): the question and
 * what would go, by page title and text (the server sends visible texts only; hidden blocks come
 * as a count), with Approve and Keep. The one-time values that answer it came with the result's
 * `_meta`; the app hands them back to the app-only tool they name and never shows them.
 */
import { button, element } from './dom.ts';
import type { Proposal } from './results.ts';

export interface ProposalActions {
  approve(): void;
  keep(): void;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function blockList(
  title: string,
  className: string,
  blocks: ReadonlyArray<{ text?: unknown; page?: unknown }> | undefined,
): HTMLElement[] {
  if (!Array.isArray(blocks) || blocks.length === 0) return [];
  return [
    element('h2', {}, title),
    element(
      'ul',
      { className: `outline ${className}` },
      ...blocks.map((b) =>
        element(
          'li',
          {},
          String(b.text ?? ''),
          typeof b.page === 'string' ? element('span', { className: 'label' }, ` · ${b.page}`) : '',
        ),
      ),
    ),
  ];
}

export function proposalView(proposal: Proposal, actions: ProposalActions): HTMLElement {
  const { view } = proposal;
  const taken = view.taken ?? {};
  const section = element('section', { className: 'panel proposal' });
  section.setAttribute('aria-labelledby', 'proposal-heading');
  section.append(
    element('h1', { id: 'proposal-heading', tabIndex: -1 }, 'The agent asks before it goes ahead'),
    element('p', { className: 'question' }, String(view.question ?? '')),
  );
  for (const page of taken.pages ?? [])
    section.append(
      element(
        'p',
        { className: 'op-head' },
        `Page '${String(page.title)}' goes, with ${plural(Number(page.blocks) || 0, 'block')}.`,
      ),
    );
  section.append(
    ...blockList('Blocks that go', 'removed', taken.blocks),
    ...blockList('Texts that are replaced', 'removed', taken.replaced),
    ...blockList('Blocks moved to another page', 'removed', taken.moved),
  );
  for (const r of taken.renames ?? [])
    section.append(
      element(
        'p',
        {},
        `'${String(r.from)}' → '${String(r.to)}': ${plural(Number(r.links) || 0, 'link')} change.`,
      ),
    );
  for (const f of taken.files ?? []) {
    const shown = Number(f.shownIn?.blocks) || 0;
    const where = shown ? `; ${plural(shown, 'block')} that show it would show a broken link` : '';
    section.append(element('p', { className: 'op-head' }, `File '${String(f.name)}' goes${where}.`));
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
    element('p', { role: error ? 'alert' : 'status' }, text),
  );
  return section;
}
