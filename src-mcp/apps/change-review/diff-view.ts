/**
 * One op of a change drawn as a diff (issue 32, "See it, don't read it"): an edit as its text
 * before and after with the deleted and inserted words marked; a create or delete as the outline
 * of blocks added or removed; a move as from where to where; a rename as old → new title; a
 * conflict as the agent's text beside what is there now. Places by page and block text.
 */
import type { AppBlock, AppOp, AppPlace } from './results.ts';
import { element, graphText } from './dom.ts';
import { wordDiff } from '../../../src-shared/word-diff.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const countBlocks = (blocks: readonly AppBlock[]): number =>
  blocks.reduce((sum, b) => sum + 1 + countBlocks(Array.isArray(b.children) ? b.children : []), 0);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A headline's parts: our words, and graph texts (`{graph}`) drawn isolated. */
type Part = string | { graph: string };

function headlineParts(op: AppOp): Part[] {
  const on: Part[] = op.page ? [' on ', { graph: op.page }] : [];
  const page: Part = { graph: op.page ?? '' };
  const blocks = Array.isArray(op.blocks) ? countBlocks(op.blocks) + (op.more ?? 0) : 0;
  switch (op.kind) {
    case 'edit':
      return ['Edited a block', ...on];
    case 'create':
      return op.target === 'page' ? ['Created page ', page] : [`Added ${plural(blocks, 'block')}`];
    case 'delete':
      return op.target === 'page' ? ['Deleted page ', page] : [`Deleted ${plural(blocks, 'block')}`, ...on];
    case 'move':
      return ['Moved a block'];
    case 'rename':
      return ['Renamed a page'];
    case 'comment':
      return ['Commented on a block'];
    default:
      return [op.summary ?? 'Changed something that cannot be shown'];
  }
}

/** The op in one line, as a person says it: what happened, and on which page (plain text). */
export function opHeadline(op: AppOp): string {
  return headlineParts(op)
    .map((p) => (typeof p === 'string' ? p : p.graph))
    .join('');
}

/** The words of `before` → `after`, one side: kept words plain, the side's own words marked. */
function side(before: string, after: string, which: 'before' | 'after'): Array<Node | string> {
  return wordDiff(before, after).flatMap((part): Array<Node | string> => {
    if (part.kind === 'same') return [part.text];
    if (part.kind === 'deleted') return which === 'before' ? [element('del', {}, part.text)] : [];
    return which === 'after' ? [element('ins', {}, part.text)] : [];
  });
}

/** An edit's text before and after, each with its own words marked. */
export function editRows(before: string, after: string): HTMLParagraphElement[] {
  return [
    textRow('Before', element('bdi', {}, ...side(before, after, 'before'))),
    textRow('After', element('bdi', {}, ...side(before, after, 'after'))),
  ];
}

function textRow(label: string, ...content: Array<Node | string>): HTMLParagraphElement {
  return element(
    'p',
    { className: 'row' },
    element('span', { className: 'label' }, label),
    element('span', { className: 'text' }, ...content),
  );
}

function outline(blocks: readonly AppBlock[], mark: 'ins' | 'del'): HTMLUListElement {
  return element(
    'ul',
    { className: `outline ${mark === 'ins' ? 'added' : 'removed'}` },
    ...blocks.map((block) => {
      const item = element('li', {}, element(mark, {}, graphText(text(block.string))));
      if (Array.isArray(block.children) && block.children.length > 0)
        item.append(outline(block.children, mark));
      return item;
    }),
  );
}

const place = (at: AppPlace | undefined): Array<Node | string> =>
  at?.page === undefined
    ? ['a place no longer in the graph']
    : at.block
      ? [graphText(at.page), ' › ', graphText(at.block)]
      : [graphText(at.page)];

function body(op: AppOp): Array<Node | string> {
  const blocks = Array.isArray(op.blocks) ? op.blocks : [];
  const more =
    op.more && op.more > 0
      ? [element('p', { className: 'more' }, `…and ${plural(op.more, 'more block')}`)]
      : [];
  switch (op.kind) {
    case 'edit': {
      if (typeof op.before !== 'string' || typeof op.after !== 'string') return [];
      return editRows(op.before, op.after);
    }
    case 'create':
    case 'comment':
      return blocks.length ? [outline(blocks, 'ins'), ...more] : [];
    case 'delete':
      return blocks.length ? [outline(blocks, 'del'), ...more] : [];
    case 'move':
      return [
        ...(blocks[0] ? [textRow('Block', graphText(text(blocks[0].string)))] : []),
        textRow('From', ...place(op.from)),
        textRow('To', ...place(op.to)),
      ];
    case 'rename':
      return [
        textRow(
          'Title',
          element('del', {}, graphText(text(op.before))),
          ' → ',
          element('ins', {}, graphText(text(op.after))),
        ),
      ];
    default:
      return [];
  }
}

/** The op: its headline and its diff. */
export function opView(op: AppOp): HTMLDivElement {
  return element(
    'div',
    { className: `op ${op.kind}` },
    element(
      'p',
      { className: 'op-head' },
      ...headlineParts(op).map((p) => (typeof p === 'string' ? p : graphText(p.graph))),
    ),
    ...body(op),
  );
}

/** An edit someone changed since: what the agent wrote beside what is there now. */
export function conflictView(agentText: string, now: string): HTMLDivElement {
  return element(
    'div',
    { className: 'side-by-side' },
    element(
      'div',
      {},
      element('p', { className: 'label' }, 'The agent wrote'),
      element('p', {}, element('bdi', {}, ...side(agentText, now, 'before'))),
    ),
    element(
      'div',
      {},
      element('p', { className: 'label' }, 'There now'),
      element('p', {}, element('bdi', {}, ...side(agentText, now, 'after'))),
    ),
  );
}
