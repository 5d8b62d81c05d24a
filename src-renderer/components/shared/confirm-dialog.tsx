import { useEffect, useId, useRef } from 'react';
import { trapTab } from './focus-trap.ts';

/** An inline confirmation: focus lands on Cancel (the safe choice) and stays inside; Escape cancels. */
export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      className="confirm"
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onCancel();
        else trapTab(event);
      }}
    >
      <p id={titleId} className="strong">
        {props.title}
      </p>
      <p id={bodyId}>{props.body}</p>
      <div className="actions">
        <button type="button" ref={cancelRef} onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </div>
  );
}
