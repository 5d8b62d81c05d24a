import { useState } from 'react';

/** Copies text to the clipboard and says whether it worked (and what to do when it did not). */
export function CopyButton(props: { text: string; label: string; children?: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.text);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  }
  return (
    <>
      <button type="button" aria-label={props.label} onClick={() => void copy()}>
        {props.children ?? 'Copy'}
      </button>
      {outcome && (
        <span role="status" className={outcome === 'failed' ? 'error-text' : 'muted'}>
          {outcome === 'copied' ? 'Copied' : `Could not copy; select and copy it by hand: ${props.text}`}
        </span>
      )}
    </>
  );
}
