/**
 * What a native notification and a message box say about a change waiting for the person
 * (docs/tray.md, "Approvals"), shaped here so the shell only shows it: every text from an agent
 * or a graph made a plain line (src-shared/person-text.ts: no control, direction or zero-width
 * character, cut), a notification body escaped where the desktop renders markup, and the whole
 * bounded however long the titles an agent made.
 */
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { cutText, escapeMarkup, plainLine } from '../../../src-shared/person-text.ts';

/** Characters per quoted text in a box line, and of a question. */
const LINE_CHARS = 160;
const QUESTION_CHARS = 400;
/** A notification shows a few lines; the rest is in Roam Companion. */
const NOTICE_BODY_CHARS = 240;
/** Lines listed per kind (blocks deleted, replaced, moved; files), and the whole detail, in a box. */
const LINES_PER_KIND = 8;
const DETAIL_CHARS = 6000;
/** Page titles a file's blocks are on, listed up to a few: the line stays one line. */
const PAGES_PER_FILE = 3;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const plain = (text: string) => plainLine(text, LINE_CHARS);

/** The notification for the changes waiting, the newest named: title and body, plain and bounded. */
export function noticeText(
  waiting: number,
  newest: ProposalView,
  platform: NodeJS.Platform,
): { title: string; body: string } {
  const more = waiting - 1;
  const tail = more ? ` (and ${more} more)` : '';
  const body = `${plainLine(newest.question, NOTICE_BODY_CHARS - tail.length)}${tail}`;
  return {
    title: waiting === 1 ? 'A change waits for your answer' : `${waiting} changes wait for your answer`,
    // Linux daemons that render markup would draw an agent's <b> or <a>; elsewhere it shows as typed.
    body: platform === 'linux' ? escapeMarkup(body) : body,
  };
}

/** "Your answer was not applied" with why, as a notification body. */
export function noticeBody(text: string, platform: NodeJS.Platform): string {
  const body = plainLine(text, NOTICE_BODY_CHARS);
  return platform === 'linux' ? escapeMarkup(body) : body;
}

/** Who asked, as the box and the panel say it: the client's name when the chat gave one. */
export function askedBy(proposal: Pick<ProposalView, 'tool' | 'client'>): string {
  const who = proposal.client ? plain(proposal.client) : 'an AI client';
  return `asked by ${who} (${plain(proposal.tool)})`;
}

/** A message box's question and detail: what goes and what comes, plain and bounded. */
export function boxText(
  proposal: ProposalView,
  more: number,
  until: string,
): { message: string; detail: string } {
  const detail = [
    `Graph '${plain(proposal.graph)}' · ${askedBy(proposal)} · nothing has changed yet.`,
    '',
    ...whatChanges(proposal.taken),
    '',
    ...(more ? [`${plural(more, 'more change waits', 'more changes wait')} for your answer.`] : []),
    `It waits until ${until}, then nothing is done. Later asks nothing more for now: what waits stays answerable in the chat, and the notification asks again.`,
  ].join('\n');
  return { message: plainLine(proposal.question, QUESTION_CHARS), detail: cutText(detail, DETAIL_CHARS) };
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

/** What would go and what would come, as the manager's approvals panel lists it. */
function whatChanges(taken: ProposalView['taken']): string[] {
  const pagesGone = new Set(taken.pages.map((p) => p.title));
  const line = (item: ProposalView['taken']['blocks'][number]) => {
    const page = item.page && !pagesGone.has(item.page) ? ` · '${plain(item.page)}'` : '';
    const text = plain(item.text) || '(an empty block)';
    const comes = item.newText === undefined ? '' : ` → ${plain(item.newText) || '(empty)'}`;
    return `${text}${comes}${page}`;
  };
  return [
    ...taken.pages.map(
      (page) =>
        `Page deleted: '${plain(page.title)}' (${plural(page.blocks, 'block')}${page.hidden ? `, ${page.hidden} hidden` : ''}${page.linkedFrom.blocks ? `; linked from ${plural(page.linkedFrom.blocks, 'block')}` : ''})`,
    ),
    ...listed('Blocks deleted', taken.blocks.map(line)),
    ...listed('Text replaced (old → new)', taken.replaced.map(line)),
    ...listed('Moved to another page', taken.moved.map(line)),
    ...listed('Blocks written new', (taken.added ?? []).map(line)),
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
