import type { ReactNode } from 'react';
import type { ClientChangeView } from '../../src-shared/ipc-contract.ts';

interface Line {
  mark: string;
  text: string;
  /** The other side of a changed line (a "-" paired with a "+"), to mark what differs in it. */
  pair?: string;
}

/** Pairs the i-th removed with the i-th added line of each change, so a rewritten line shows its edit. */
function parseDiff(diff: string): Line[] {
  const lines: Line[] = diff.split('\n').map((l) => ({ mark: l.slice(0, 1), text: l.slice(2) }));
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (end < lines.length && lines[end]!.mark !== ' ') end++;
    const removed = lines.slice(start, end).filter((l) => l.mark === '-');
    const added = lines.slice(start, end).filter((l) => l.mark === '+');
    if (removed.length === added.length) {
      removed.forEach((line, i) => {
        line.pair = added[i]!.text;
        added[i]!.pair = line.text;
      });
    }
    start = end + 1;
  }
  return lines;
}

/** `text` with the part that differs from `pair` (between their common prefix and suffix) marked. */
function markChange(text: string, pair: string | undefined): ReactNode {
  if (pair === undefined) return text;
  let head = 0;
  while (head < text.length && head < pair.length && text[head] === pair[head]) head++;
  let tail = 0;
  while (
    tail < text.length - head &&
    tail < pair.length - head &&
    text[text.length - 1 - tail] === pair[pair.length - 1 - tail]
  )
    tail++;
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
export function ClientChangePreviewView(props: { preview: ClientChangeView }) {
  const { preview } = props;
  const fileNote =
    preview.before === null ? ' (a new file)' : preview.after === null ? ' (the file is removed)' : '';
  return (
    <div className="preview" aria-label="Change preview">
      <p className="small">
        {preview.action === 'install' ? 'Adds Roam Companion to' : 'Removes Roam Companion from'}{' '}
        <code>{preview.configPath}</code>
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
