import { useEffect, useRef } from 'react';
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { cutText, outcomeForPerson } from '../../../src-shared/person-text.ts';
import { wordDiff } from '../../../src-shared/word-diff.ts';
import { useProposals } from '../../stores/stores-context.tsx';
import { Runs } from '../shared/change-diff.tsx';
import { QuotedLine } from '../shared/graph-text.tsx';
import './approvals-panel.css';

type Taken = ProposalView['taken'];
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** Characters per title an agent made (a 5,000-character one stays a line), and of a question. */
const TITLE_CHARS = 80;
const QUESTION_CHARS = 600;
const cutTitle = (text: string) => cutText(text, TITLE_CHARS);

/**
 * Changes an agent asked for that wait for the person (docs/tray.md, "Approvals"), above every
 * screen while any waits: what would go, drawn as a diff, and Approve or Keep. The first answer
 * wins, here or in the chat; one answered in the chat leaves this list and says so.
 */
export function ApprovalsPanel() {
  const waiting = useProposals((s) => s.waiting);
  const note = useProposals((s) => s.note);
  const dismissNote = useProposals((s) => s.dismissNote);
  const showRequests = useProposals((s) => s.showRequests);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A notification or the tray menu asked to show them.
  useEffect(() => {
    if (showRequests) headingRef.current?.focus();
  }, [showRequests]);
  if (waiting.length === 0 && !note) return null;
  return (
    <section className="approvals" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading" ref={headingRef} tabIndex={-1}>
        {waiting.length === 0
          ? 'No change waits for your answer'
          : waiting.length === 1
            ? 'A change waits for your answer'
            : `${waiting.length} changes wait for your answer`}
      </h2>
      <div role="status" className={note ? `notice row ${note.done ? '' : 'warning'}` : 'visually-hidden'}>
        {note && (
          <>
            <p className="grow">
              <QuotedLine text={cutText(outcomeForPerson(note.text), QUESTION_CHARS)} />
            </p>
            <button type="button" onClick={dismissNote}>
              OK
            </button>
          </>
        )}
      </div>
      <ul className="list approvals-list">
        {waiting.map((proposal) => (
          // After an answer the focus goes to the heading, which says what still waits.
          <Proposal key={proposal.id} proposal={proposal} onAnswered={() => headingRef.current?.focus()} />
        ))}
      </ul>
    </section>
  );
}

function Proposal({ proposal, onAnswered }: { proposal: ProposalView; onAnswered(): void }) {
  const answering = useProposals((s) => s.answering.includes(proposal.id));
  const answer = useProposals((s) => s.answer);
  const titleId = `proposal-${proposal.id}`;
  return (
    <li className="card approval" aria-labelledby={titleId}>
      <p id={titleId} className="approval-question">
        <QuotedLine text={cutText(proposal.question, QUESTION_CHARS)} />
      </p>
      <p className="small muted">
        Graph <bdi>{cutTitle(proposal.graph)}</bdi> · asked by{' '}
        {proposal.client ? <bdi>{cutTitle(proposal.client)}</bdi> : 'an AI client'} ({proposal.tool}) ·
        nothing has changed yet
      </p>
      <TakenDiff taken={proposal.taken} label={`What ${proposal.tool} would change`} />
      {/* As in the chat's approval view: Approve first, the primary action. */}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={answering}
          onClick={() => void answer(proposal.id, 'approve').then(onAnswered)}
        >
          Approve
        </button>
        <button
          type="button"
          disabled={answering}
          onClick={() => void answer(proposal.id, 'keep').then(onAnswered)}
        >
          Keep as it is
        </button>
      </div>
    </li>
  );
}

/** Whether a proposal takes nothing away and shows nothing new (a small write under "every change"). */
function drawsNothing(taken: Taken): boolean {
  const lists = [
    taken.pages,
    taken.blocks,
    taken.replaced,
    taken.moved,
    taken.added ?? [],
    taken.renames,
    taken.files,
  ];
  return lists.every((list) => list.length === 0) && !taken.hidden && !taken.changes && !taken.unknown;
}

/** What would go, as the Activity diff draws a removal: struck through, named by page. */
function TakenDiff({ taken, label }: { taken: Taken; label: string }) {
  // Its question says what it writes; an empty box would only be a stop for the keyboard.
  if (drawsNothing(taken))
    return <p className="small muted">Nothing is taken away: it only writes what the question says.</p>;
  const pagesGone = new Set(taken.pages.map((p) => p.title));
  return (
    // It scrolls when long: focusable, so the keyboard can scroll it too.
    <div className="change-diff small undo-report-box" role="group" aria-label={label} tabIndex={0}>
      {taken.pages.map((page, i) => (
        <div key={`page-${i}`} className="diff-detail">
          <span className="muted">
            Page deleted: <bdi>{cutTitle(page.title)}</bdi> ({plural(page.blocks, 'block')}
            {page.hidden ? `, ${page.hidden} hidden` : ''}
            {page.linkedFrom.blocks ? `; linked from ${plural(page.linkedFrom.blocks, 'block')}` : ''})
          </span>
        </div>
      ))}
      <Lines title="Blocks deleted" items={taken.blocks} pagesGone={pagesGone} />
      <Replaced items={taken.replaced} pagesGone={pagesGone} />
      <Lines title="Moved to another page" items={taken.moved} pagesGone={pagesGone} />
      <Lines title="Blocks written new" items={taken.added ?? []} pagesGone={pagesGone} change="inserted" />
      {taken.renames.map((rename, i) => (
        <div key={`rename-${i}`} className="diff-detail">
          <span className="muted">Page renamed; {plural(rename.links, 'link')} rewritten</span>
          <p className="diff-text">
            <del>
              <span className="visually-hidden">[deleted: </span>
              <bdi>{cutTitle(rename.from)}</bdi>
              <span className="visually-hidden">]</span>
            </del>{' '}
            →{' '}
            <ins>
              <span className="visually-hidden">[inserted: </span>
              <bdi>{cutTitle(rename.to)}</bdi>
              <span className="visually-hidden">]</span>
            </ins>
          </p>
        </div>
      ))}
      <FilesGone files={taken.files} />
      {taken.hidden > 0 && <p className="muted">{plural(taken.hidden, 'hidden block')} (not shown to AI)</p>}
      {taken.changes ? <p className="muted">Takes back {plural(taken.changes, 'change')}</p> : null}
      {taken.unknown ? (
        <p className="muted">
          Runs code whose effects are unknown and cannot be undone:{' '}
          <QuotedLine text={cutTitle(taken.unknown)} />
        </p>
      ) : null}
    </div>
  );
}

/** Each block's page is named unless the page itself goes (said once above). */
function Lines({
  title,
  items,
  pagesGone,
  change = 'deleted',
}: {
  title: string;
  items: Taken['blocks'];
  pagesGone: Set<string>;
  /** Struck as what goes, or marked as what comes. */
  change?: 'deleted' | 'inserted';
}) {
  if (items.length === 0) return null;
  return (
    <div className="diff-detail">
      <span className="muted">{title}</span>
      <ul className={`diff-outline ${change === 'deleted' ? 'removed' : 'added'}`}>
        {items.map((item, i) => (
          <li key={i}>
            <span className="visually-hidden">[{change}: </span>
            <bdi>{item.text || '(an empty block)'}</bdi>
            <span className="visually-hidden">]</span>
            {item.page && !pagesGone.has(item.page) ? (
              <span className="muted">
                {' '}
                · <bdi>{cutTitle(item.page)}</bdi>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Files go whole, named as the person knows them; the blocks that show them stay, with a broken link. */
function FilesGone({ files }: { files: Taken['files'] }) {
  if (files.length === 0) return null;
  return (
    <div className="diff-detail">
      <span className="muted">{plural(files.length, 'file')} deleted from Roam</span>
      <ul className="diff-outline removed">
        {files.map((file, i) => (
          <li key={i}>
            <span className="visually-hidden">[deleted: </span>
            <bdi>{cutTitle(file.name)}</bdi>
            <span className="visually-hidden">]</span>{' '}
            <span className="muted file-shown">
              ·{' '}
              {file.shownIn.blocks === 0 ? (
                'no block shows it'
              ) : (
                <>
                  shown in {plural(file.shownIn.blocks, 'block')} on{' '}
                  <QuotedLine text={file.shownIn.pages.map((page) => `'${cutTitle(page)}'`).join(', ')} />,
                  left with a broken link
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Each replaced text as its words before and after: what goes struck, what comes marked; its page
 * named where it differs from the one before.
 */
function Replaced({ items, pagesGone }: { items: Taken['replaced']; pagesGone: Set<string> }) {
  if (items.length === 0) return null;
  return (
    <div className="diff-detail">
      <span className="muted">Text replaced</span>
      <ul className="approval-edits">
        {items.map((item, i) => {
          const runs = wordDiff(item.text, item.newText ?? '');
          const newPage = item.page !== items[i - 1]?.page;
          return (
            <li key={i}>
              {item.page && newPage && !pagesGone.has(item.page) ? (
                <span className="muted">
                  On <bdi>{cutTitle(item.page)}</bdi>
                </span>
              ) : null}
              <p className="diff-text diff-before">
                <span className="diff-side">Before</span>
                <Runs runs={runs.filter((r) => r.kind !== 'inserted')} />
              </p>
              {item.newText === undefined ? null : (
                <p className="diff-text diff-after">
                  <span className="diff-side">After</span>
                  <Runs runs={runs.filter((r) => r.kind !== 'deleted')} />
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
