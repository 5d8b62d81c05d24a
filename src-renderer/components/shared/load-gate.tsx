import type { ReactNode } from 'react';
import type { LoadState } from '../../stores/load-state.ts';

/** The loading and error states every view shares; renders children once data is ready. */
export function LoadGate(props: { state: LoadState; what: string; onRetry(): void; children: ReactNode }) {
  if (props.state.phase === 'loading') {
    return (
      <p className="muted" role="status">
        Loading {props.what}…
      </p>
    );
  }
  if (props.state.phase === 'error') {
    return (
      <div className="notice error" role="alert">
        <p>
          Could not load {props.what}: {props.state.message}
        </p>
        <button type="button" onClick={props.onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return <>{props.children}</>;
}
