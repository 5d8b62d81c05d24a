import { useId } from 'react';
import type { NicknameCheck } from './use-nickname-check.ts';

/** Nickname input with the live uniqueness verdict announced next to it. */
export function NicknameField(props: {
  value: string;
  onChange(value: string): void;
  check: NicknameCheck;
  placeholder?: string;
  /** What an empty nickname means here (the add form falls back to the graph's name). */
  emptyHint?: string;
  /** The graph's nickname now (the edit form): kept as it is, it is no news that it is free. */
  current?: string;
}) {
  const inputId = useId();
  const hintId = useId();
  const { check } = props;
  const empty = !props.value.trim();
  const unchanged = props.current !== undefined && props.value.trim() === props.current;
  return (
    <div className="field">
      <label htmlFor={inputId}>Nickname</label>
      <input
        id={inputId}
        value={props.value}
        placeholder={props.placeholder}
        aria-describedby={hintId}
        aria-invalid={check.state === 'invalid'}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <span
        id={hintId}
        className={check.state === 'invalid' ? 'error-text small' : 'muted small'}
        aria-live="polite"
      >
        {check.state === 'invalid'
          ? check.message
          : empty && props.emptyHint
            ? props.emptyHint
            : unchanged
              ? 'The nickname agents use now.'
              : check.state === 'ok'
                ? 'Nickname is free.'
                : check.state === 'checking'
                  ? 'Checking…'
                  : 'How agents will call this graph; unique ignoring case, one alphabet.'}
      </span>
    </div>
  );
}
