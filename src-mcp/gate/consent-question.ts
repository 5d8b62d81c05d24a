/**
 * The question put to the person, in their words: page titles, counts and the first lines of
 * what goes and of what comes instead (a replaced text's new text); never a uid, never the text
 * of a block hidden from AI (those are "N hidden blocks").
 */
import { plainLine } from '../../src-shared/person-text.ts';
import type { PlacedBlock, TakenAway } from '../contract/taken-away.ts';
import { WINDOW_MS } from './thresholds.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const FIRST_LINES = 3;
const LINE = 60;
const TITLE = 80;

/**
 * A block's first line, quoted: plain (no control, direction or zero-width character: the
 * question is plain text, so a graph's text cannot reorder or hide the words around it) and cut.
 */
function quoted(text: string): string {
  return `'${plainLine(text.split('\n')[0] ?? '', LINE)}'`;
}

/** A title or name, quoted: plain and cut, however long an agent made it. */
const title = (text: string) => `'${plainLine(text, TITLE)}'`;

/** A new text: its first line, and how many more lines come with it (they are written too). */
function quotedNew(text: string): string {
  const more = text
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '').length;
  return more ? `${quoted(text.trimStart())} (+ ${plural(more, 'more line')})` : quoted(text.trimStart());
}

function titles(pages: readonly string[]): string {
  const shown = pages.slice(0, 3).map(title);
  return pages.length > 3 ? `${shown.join(', ')} and ${pages.length - 3} more` : shown.join(', ');
}

const placedOn = (blocks: readonly PlacedBlock[]) => {
  const pages = [...new Set(blocks.flatMap((b) => (b.page ? [b.page] : [])))];
  return pages.length ? ` on ${titles(pages)}` : '';
};

/** "12 blocks on 'Project' ('a', 'b', 'c' and 9 more)". */
function blockList(blocks: readonly PlacedBlock[]): string {
  const lines = blocks.slice(0, FIRST_LINES).map((b) => quoted(b.text));
  const more = blocks.length > FIRST_LINES ? ` and ${blocks.length - FIRST_LINES} more` : '';
  return `${plural(blocks.length, 'block')}${placedOn(blocks)} (${lines.join(', ')}${more})`;
}

/**
 * "11 blocks on 'Ledger' ('entry 1', … and 8 more) with 'Wire the money…'" when every block gets
 * the same text, else each old first line → its new one: what comes is asked about, not only what goes.
 */
function replacedList(blocks: readonly PlacedBlock[]): string {
  const news = [...new Set(blocks.map((b) => b.newText))];
  const [only] = news;
  if (news.length === 1 && only !== undefined) return `${blockList(blocks)} with ${quotedNew(only)}`;
  const lines = blocks
    .slice(0, FIRST_LINES)
    .map((b) => (b.newText === undefined ? quoted(b.text) : `${quoted(b.text)} → ${quotedNew(b.newText)}`));
  const more = blocks.length > FIRST_LINES ? ` and ${blocks.length - FIRST_LINES} more` : '';
  return `${plural(blocks.length, 'block')}${placedOn(blocks)} (${lines.join(', ')}${more})`;
}

/** "2 new blocks ('Wire the money…', 'b')": what a rewrite writes beside what it takes. */
function addedList(blocks: ReadonlyArray<{ text: string }>): string {
  const lines = blocks.slice(0, FIRST_LINES).map((b) => quotedNew(b.text));
  const more = blocks.length > FIRST_LINES ? ` and ${blocks.length - FIRST_LINES} more` : '';
  return `${plural(blocks.length, 'new block')} (${lines.join(', ')}${more})`;
}

function joinClauses(clauses: string[]): string {
  if (clauses.length <= 1) return clauses.join('');
  return `${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1)}`;
}

export interface QuestionContext {
  graph: string;
  /** Blocks the chat took from this graph in the window, before this call. */
  windowBlocks: number;
  /** Pages of this call whose change the person declined before. */
  declinedPages: string[];
}

/** One question for the whole call, e.g. "Delete the page 'X' and its 30 blocks in graph 'g'? …". */
export function consentQuestion(taken: TakenAway, context: QuestionContext): string {
  const clauses: string[] = [];
  const notes: string[] = [];
  const onRemovedPage = new Set(taken.pages.map((p) => p.title));
  const it = (page: string) => (taken.pages.length === 1 ? 'It' : title(page));
  for (const page of taken.pages) {
    const hidden = page.hidden ? ` (${page.hidden} of them hidden)` : '';
    clauses.push(`delete the page ${title(page.title)} and its ${plural(page.blocks, 'block')}${hidden}`);
    if (page.linkedFrom.pages.length > 0)
      notes.push(
        `${it(page.title)} is linked from ${plural(page.linkedFrom.blocks, 'block')} on ${plural(page.linkedFrom.pages.length, 'other page')} (${titles(page.linkedFrom.pages)}); those links would lead nowhere.`,
      );
  }
  const blocks = taken.blocks.filter((b) => !b.page || !onRemovedPage.has(b.page));
  if (blocks.length) clauses.push(`delete ${blockList(blocks)}`);
  if (taken.replaced.length) clauses.push(`replace the text of ${replacedList(taken.replaced)}`);
  if (taken.moved.length) clauses.push(`move ${blockList(taken.moved)} to another page`);
  if (taken.added?.length) clauses.push(`write ${addedList(taken.added)}`);
  const hiddenElsewhere = taken.hidden.length - taken.pages.reduce((sum, p) => sum + p.hidden, 0);
  if (hiddenElsewhere > 0) clauses.push(`remove or overwrite ${plural(hiddenElsewhere, 'hidden block')}`);
  if (taken.files.length) {
    const names = titles(taken.files.map((f) => f.name));
    clauses.push(
      taken.files.length === 1 ? `delete the file ${names}` : `delete ${taken.files.length} files (${names})`,
    );
  }
  for (const f of taken.files)
    if (f.shownIn.blocks > 0)
      notes.push(
        `${title(f.name)} is shown in ${plural(f.shownIn.blocks, 'block')} on ${titles(f.shownIn.pages)}; ${f.shownIn.blocks === 1 ? 'it' : 'they'} would show a broken link.`,
      );
  for (const r of taken.renames) {
    const on = r.linkPages.length ? ` on ${plural(r.linkPages.length, 'page')} (${titles(r.linkPages)})` : '';
    clauses.push(`rename the page ${title(r.from)} to ${title(r.to)}`);
    notes.push(`It is linked from ${plural(r.links, 'block')}${on}; their links would change with it.`);
  }
  if (taken.unknown) {
    clauses.push(`run ${plainLine(taken.unknown, TITLE + 30)}`);
    notes.push('What it changes is not known in advance, and it cannot be undone.');
  }
  // An undo says first what it takes back, then what that would take away.
  if (taken.changes && clauses.length) notes.unshift(`That would ${joinClauses(clauses)}.`);
  const first = taken.changes
    ? `undo ${plural(taken.changes, 'change')} this chat made`
    : joinClauses(clauses);
  const ask = `${first.charAt(0).toUpperCase()}${first.slice(1)} in graph ${title(context.graph)}?`;
  if (context.windowBlocks > 0)
    notes.push(
      `Agents already took away ${plural(context.windowBlocks, 'block')} there in the last ${WINDOW_MS / 60_000} minutes.`,
    );
  if (context.declinedPages.length)
    notes.push(`The person declined a change to ${titles(context.declinedPages)} earlier.`);
  if (taken.files.length)
    notes.push(
      'It can be undone from this chat, but a file comes back under a new address, which no block shows.',
    );
  else if (!taken.unknown) notes.push('It can be undone from this chat.');
  return [ask, ...notes].join(' ');
}

/** The pages a call takes from, by title: a decline is remembered for them. */
export function pagesTakenFrom(taken: TakenAway): string[] {
  return [
    ...new Set([
      ...taken.pages.map((p) => p.title),
      ...[...taken.blocks, ...taken.replaced, ...taken.moved].flatMap((b) => (b.page ? [b.page] : [])),
      ...taken.renames.map((r) => r.from),
    ]),
  ];
}
