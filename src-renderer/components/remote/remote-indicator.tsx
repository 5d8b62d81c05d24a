import { useRemote } from '../../stores/stores-context.tsx';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * While remote access is on, above the status bar on every screen: from where, what is live, what
 * waits for an answer (a person who forgets it is on sees it). Show opens Settings > Remote access.
 */
export function RemoteIndicator({ onShow }: { onShow(): void }) {
  const remote = useRemote((s) => s.remote);
  const show = useRemote((s) => s.show);
  if (!remote?.on || !remote.publicUrl) return null;
  const waiting = remote.waiting.length;
  return (
    <div className="remote-indicator" role="status">
      <span className="grow small">
        <span className="strong">Remote access on</span> at {new URL(remote.publicUrl).host} ·{' '}
        {count(remote.connections.length, 'connection', 'connections')}
        {waiting > 0 && (
          <span className="strong"> · {count(waiting, 'sign-in waits', 'sign-ins wait')} for you</span>
        )}
      </span>
      <button
        type="button"
        aria-label="Show remote access"
        onClick={() => {
          onShow();
          show();
        }}
      >
        Show
      </button>
    </div>
  );
}
