import { useEffect, useId, useRef, type ReactNode } from 'react';
import { trapTab } from '../shared/focus-trap.ts';
import type { ClientChangeView } from '../../../src-shared/ipc-contract.ts';

interface Line {
  mark: string;
  text: string;
  /** The other side of a changed line (a "-" paired with a "+"), to mark what differs in it. */
  pair?: string;
}

/**
 * Pairs each removed line of a change with the added line it became (in order, when they share
 * most of their text), so a rewritten line shows only its edit and an untouched one only the comma.
 */
function parseDiff(diff: string): Line[] {
  const lines: Line[] = diff.split('\n').map((l) => ({ mark: l.slice(0, 1), text: l.slice(2) }));
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (end < lines.length && lines[end]!.mark !== ' ') end++;
    pairChanges(
      lines.slice(start, end).filter((l) => l.mark === '-'),
      lines.slice(start, end).filter((l) => l.mark === '+'),
    );
    start = end + 1;
  }
  return lines;
}

function pairChanges(removed: Line[], added: Line[]): void {
  let next = 0;
  for (const line of removed) {
    let best = -1;
    let bestScore = 0;
    for (let i = next; i < added.length; i++) {
      const score = similarity(line.text, added[i]!.text);
      // Under half in common: two different lines, not one line edited.
      if (score >= 0.5 && score > bestScore) [best, bestScore] = [i, score];
    }
    if (best < 0) continue;
    line.pair = added[best]!.text;
    added[best]!.pair = line.text;
    next = best + 1;
  }
}

/** The share of the longer line that the two lines' common start and end cover. */
function similarity(a: string, b: string): number {
  const [head, tail] = commonEnds(a, b);
  return (head + tail) / Math.max(a.length, b.length, 1);
}

/** Lengths of the common prefix and (not overlapping it) common suffix of two lines. */
function commonEnds(text: string, pair: string): [number, number] {
  let head = 0;
  while (head < text.length && head < pair.length && text[head] === pair[head]) head++;
  let tail = 0;
  while (
    tail < text.length - head &&
    tail < pair.length - head &&
    text[text.length - 1 - tail] === pair[pair.length - 1 - tail]
  )
    tail++;
  return [head, tail];
}

/** `text` with the part that differs from `pair` (between their common start and end) marked. */
function markChange(text: string, pair: string | undefined): ReactNode {
  if (pair === undefined) return text;
  const [head, tail] = commonEnds(text, pair);
  if (head + tail >= text.length) return text;
  return (
    <>
      {text.slice(0, head)}
      <mark>{text.slice(head, text.length - tail)}</mark>
      {text.slice(text.length - tail)}
    </>
  );
}

const kinds: Record<string, string> = { '+': 'added', '-': 'removed' };

function DiffLine(props: { line: Line }) {
  const { mark, text, pair } = props.line;
  const kind = kinds[mark];
  if (!kind) return <span className={`diff-line${text === '...' ? ' skipped' : ''}`}>{`  ${text}`}</span>;
  return (
    <span className={`diff-line ${kind}`} aria-label={`${kind}: ${text}`}>
      {`${mark} `}
      {markChange(text, pair)}
    </span>
  );
}

/** The change to a client's config file as a diff (the CLI's --dry-run), wrapped to the window. */
export function ClientChangePreviewView(props: { preview: ClientChangeView; hasEntry?: boolean }) {
  const { preview } = props;
  const fileNote =
    preview.before === null ? ' (a new file)' : preview.after === null ? ' (the file is removed)' : '';
  const what =
    preview.action === 'uninstall'
      ? 'Removes Roam Companion from'
      : props.hasEntry
        ? 'Changes the Roam Companion entry in'
        : 'Adds Roam Companion to';
  return (
    <div className="preview" aria-label="Change preview">
      <p className="small">
        {what} <code>{preview.configPath}</code>
        {fileNote}:
      </p>
      <pre className="diff" aria-label="Changes">
        {parseDiff(preview.diff).map((line, index) => (
          <DiffLine key={index} line={line} />
        ))}
      </pre>
    </div>
  );
}

/**
 * The preview as a small dialog in the client's row: it takes the focus, keeps Tab inside,
 * and Escape or Cancel closes it without writing anything.
 */
export function ChangeConfirmation(props: {
  preview: ClientChangeView;
  clientName: string;
  /** The config already has our entry: an install changes it rather than adds it. */
  hasEntry?: boolean;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}) {
  const { preview } = props;
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => dialogRef.current?.focus(), []);
  const verb = preview.action === 'install' ? 'install' : 'uninstall';
  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      className="change-confirmation"
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onCancel();
        else trapTab(event);
      }}
    >
      <p id={titleId} className="strong">
        Confirm the change to {props.clientName}’s config
      </p>
      <ClientChangePreviewView preview={preview} hasEntry={props.hasEntry} />
      <div className="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={props.busy} onClick={props.onConfirm}>
          {verb === 'install' ? 'Confirm install' : 'Confirm uninstall'}
        </button>
      </div>
    </div>
  );
}
