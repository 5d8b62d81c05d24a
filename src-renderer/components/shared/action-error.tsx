import { useCallback, useState } from 'react';
import { describeError } from '../../bridge/bridge-error.ts';

/**
 * The state every user action shares: `run` clears the last error, marks the action busy, and turns
 * a failure into the plain-words message that `ActionError` shows.
 */
export function useActionError() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, setError, busy, run };
}

/** The failure of the last action, announced to screen readers; nothing when there is none. */
export function ActionError(props: { error: string | null; inline?: boolean }) {
  if (!props.error) return null;
  return props.inline ? (
    <span role="alert" className="error-text">
      {props.error}
    </span>
  ) : (
    <p role="alert" className="error-text">
      {props.error}
    </p>
  );
}
