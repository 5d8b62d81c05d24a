import { useId } from 'react';
import type { ConfirmPolicy } from '../../../src-shared/roam-config.ts';

/**
 * When an agent's write to a graph waits for the person (docs/mcp.md, "Consent before a write
 * takes much away"), in the person's words. Listed in the order a person weighs them.
 */
export const confirmText: Record<ConfirmPolicy, { label: string; explanation: string; row: string }> = {
  destructive: {
    label: 'Changes that take much away',
    explanation:
      'Deleting more than 10 blocks or a page with content, removing a file, renaming a page many blocks link to. Small changes go ahead. The default.',
    row: 'Asks you before changes that take much away',
  },
  'every-write': {
    label: 'Every change',
    explanation:
      'The agent drafts each change; nothing is written until you approve it, in the chat or in Roam Companion.',
    row: 'Asks you before every change',
  },
  never: {
    label: 'Never',
    explanation:
      'Agents write without asking. Every change is still listed in Activity, where you can undo it.',
    row: 'Never asks you: agents write without asking',
  },
};

const ORDER: readonly ConfirmPolicy[] = ['destructive', 'every-write', 'never'];

/**
 * Radio group "Ask me before", each choice explained, and `note`: whom it is for (a graph, or every
 * graph without a choice of its own).
 */
export function ConfirmField(props: {
  value: ConfirmPolicy;
  note: string;
  onChange(policy: ConfirmPolicy): void;
}) {
  const name = useId();
  const noteId = useId();
  return (
    <fieldset className="access-levels confirm-policy" aria-describedby={noteId}>
      <legend>Ask me before</legend>
      {ORDER.map((policy) => (
        <label key={policy} className="radio">
          <input
            type="radio"
            name={name}
            value={policy}
            checked={props.value === policy}
            onChange={() => props.onChange(policy)}
          />
          <span>
            <span className="strong">{confirmText[policy].label}</span>
            <span className="muted small"> — {confirmText[policy].explanation}</span>
          </span>
        </label>
      ))}
      <p id={noteId} className="muted small">
        {props.note}
      </p>
    </fieldset>
  );
}
