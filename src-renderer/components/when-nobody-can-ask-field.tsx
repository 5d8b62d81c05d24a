import { useId } from 'react';
import { WHEN_NOBODY_CAN_ASK, type WhenNobodyCanAsk } from '../../src-shared/constants.ts';

const choiceLabel: Record<WhenNobodyCanAsk, string> = {
  proceed: 'Go ahead (you can undo)',
  refuse: 'Refuse',
};

/** Radio group: what a big deletion does when the agent's app can neither ask nor show an approval. */
export function WhenNobodyCanAskField(props: {
  value: WhenNobodyCanAsk;
  onChange(choice: WhenNobodyCanAsk): void;
}) {
  const name = useId();
  const hintId = useId();
  return (
    <fieldset className="when-nobody-can-ask" aria-describedby={hintId}>
      <legend>When no one can be asked</legend>
      <p id={hintId} className="muted small">
        If an agent wants to delete or rename a lot in an AI app that can’t ask you first.
      </p>
      {WHEN_NOBODY_CAN_ASK.map((choice) => (
        <label key={choice} className="radio">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={props.value === choice}
            onChange={() => props.onChange(choice)}
          />
          <span>{choiceLabel[choice]}</span>
        </label>
      ))}
    </fieldset>
  );
}
