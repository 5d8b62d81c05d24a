import { useId } from 'react';
import { ACCESS_LEVELS, type AccessLevel } from '../../../src-shared/constants.ts';
import { accessLevelText } from '../shared/access-levels.ts';

/** Radio group of the access levels, each explained in plain words. */
export function AccessLevelField(props: {
  value: AccessLevel | undefined;
  onChange(level: AccessLevel): void;
}) {
  const name = useId();
  return (
    <fieldset className="access-levels">
      <legend>Access level</legend>
      {ACCESS_LEVELS.map((level) => (
        <label key={level} className="radio">
          <input
            type="radio"
            name={name}
            value={level}
            checked={props.value === level}
            onChange={() => props.onChange(level)}
          />
          <span>
            <span className="strong">{accessLevelText[level].label}</span>
            <span className="muted small"> — {accessLevelText[level].explanation}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
