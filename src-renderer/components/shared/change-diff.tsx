import type { ChangeDetailView, OutlineLineView } from '../../../src-shared/ipc-contract.ts';
import { QuotedLine } from './graph-text.tsx';
import { wordDiff, type DiffRun } from '../../../src-shared/word-diff.ts';

/**
 * What a change did, drawn rather than told: an edit's text before and after with the deleted and
 * inserted words marked, the outline of the blocks added or removed, a rename, a move. Marks are
 * also said in words to screen readers ("deleted", "inserted").
 */
export function ChangeDiff(props: { details: readonly ChangeDetailView[]; label: string }) {
  if (props.details.length === 0) return null;
  return (
    <div className="change-diff small" role="group" aria-label={props.label}>
      {props.details.map((detail, i) => (
        <Detail key={i} detail={detail} />
      ))}
    </div>
  );
}

function Detail({ detail }: { detail: ChangeDetailView }) {
  switch (detail.kind) {
    case 'edit':
      return <Edit {...detail} />;
    case 'outline':
      return <Outline {...detail} />;
    case 'rename':
      return (
        <div className="diff-detail">
          <span className="muted">Page renamed</span>
          <bdi>
            <Runs runs={wordDiff(detail.before, detail.after)} />
          </bdi>
        </div>
      );
    case 'move':
      return (
        <div className="diff-detail">
          <span className="muted">Moved</span>
          <p className="diff-text">{detail.text ? <bdi>{detail.text}</bdi> : '(an empty block)'}</p>
          <p className="diff-text diff-before">
            <span className="diff-side">From</span>
            <QuotedLine text={detail.from ?? 'its earlier place'} />
          </p>
          <p className="diff-text diff-after">
            <span className="diff-side">To</span>
            <QuotedLine text={detail.to ?? 'another place'} />
          </p>
        </div>
      );
    case 'note':
      return (
        <p className="muted">
          <QuotedLine text={detail.text} />
        </p>
      );
  }
}

function Edit(props: { page?: string; before: string; after: string; now?: string }) {
  const runs = wordDiff(props.before, props.after);
  const where = props.page ? `Edited in '${props.page}'` : 'Edited';
  return (
    <div className="diff-detail">
      <span className="muted">
        <QuotedLine text={props.now === undefined ? where : `${where} · changed since by someone else`} />
      </span>
      <p className="diff-text diff-before">
        <span className="diff-side">Before</span>
        <Runs runs={runs.filter((r) => r.kind !== 'inserted')} />
      </p>
      {props.now === undefined ? (
        <p className="diff-text diff-after">
          <span className="diff-side">After</span>
          <Runs runs={runs.filter((r) => r.kind !== 'deleted')} />
        </p>
      ) : (
        // A conflict: what the agent wrote beside what the block says now (its changes marked).
        <div className="diff-conflict">
          <p className="diff-text diff-after">
            <span className="diff-side">Agent</span>
            <Runs runs={runs.filter((r) => r.kind !== 'deleted')} />
          </p>
          <p className="diff-text diff-now">
            <span className="diff-side">Now</span>
            <Runs runs={wordDiff(props.after, props.now).filter((r) => r.kind !== 'deleted')} />
          </p>
        </div>
      )}
    </div>
  );
}

/** One side of a word diff, isolated; its own words marked, and said in words to screen readers. */
export function Runs({ runs }: { runs: readonly DiffRun[] }) {
  if (runs.every((r) => !r.text.trim())) return <span className="muted">(empty)</span>;
  return (
    <bdi>
      {runs.map((run, i) =>
        run.kind === 'same' ? (
          <span key={i}>{run.text}</span>
        ) : run.kind === 'deleted' ? (
          <del key={i}>
            <span className="visually-hidden">[deleted: </span>
            {run.text}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <ins key={i}>
            <span className="visually-hidden">[inserted: </span>
            {run.text}
            <span className="visually-hidden">]</span>
          </ins>
        ),
      )}
    </bdi>
  );
}

function Outline(props: {
  change: 'added' | 'removed';
  place?: string;
  lines: OutlineLineView[];
  more: number;
}) {
  const verb = props.change === 'added' ? 'Added' : 'Removed';
  const count = props.lines.length + props.more;
  return (
    <div className="diff-detail">
      <span className="muted">
        <QuotedLine
          text={`${verb} ${count === 1 ? '1 block' : `${count} blocks`}${props.place ? ` ${props.place}` : ''}`}
        />
      </span>
      <ul className={`diff-outline ${props.change}`} aria-label={`${verb} blocks`}>
        {props.lines.map((line, i) => (
          <li key={i} style={{ paddingInlineStart: `${line.depth * 14 + 4}px` }}>
            {line.text ? <bdi>{line.text}</bdi> : <span className="muted">(empty block)</span>}
          </li>
        ))}
      </ul>
      {props.more > 0 && <span className="muted">{`and ${props.more} more`}</span>}
    </div>
  );
}
