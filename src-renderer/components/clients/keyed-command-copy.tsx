import { useState } from 'react';
import type { ClientView } from '../../../src-shared/ipc-contract.ts';
import { useClients, useKeys } from '../../stores/stores-context.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';

/**
 * Claude Code's command over HTTP: shown with `<key>` for its key, and copied by main with a new
 * key in it (`clients:copy-command`), so the key never reaches this window.
 */
export function KeyedCommandCopy(props: { client: ClientView; command: string; keyName: string }) {
  const { client, command, keyName } = props;
  const copyCommand = useClients((s) => s.copyCommand);
  const refreshKeys = useKeys((s) => s.refresh);
  const [copied, setCopied] = useState(false);
  const { error, busy, run } = useActionError();
  const copy = () =>
    run(async () => {
      setCopied(false);
      if (client.id !== 'claude-code') return;
      await copyCommand(client.id);
      setCopied(true);
      // The Client keys list shows the new key's date.
      void refreshKeys().catch(() => {});
    });
  return (
    <>
      <div className="command">
        <code>{command}</code>
        <button
          type="button"
          disabled={busy}
          aria-label={`Copy the ${client.name} command`}
          onClick={() => void copy()}
        >
          Copy
        </button>
        {copied && (
          <span role="status" className="muted">
            Copied, with a new key ({keyName})
          </span>
        )}
      </div>
      <p className="small muted">
        Copying makes a new key and keeps it in a file only you can read, which the command names; a{' '}
        {client.name} set up with it picks up the new key at its next connection.
      </p>
      <ActionError error={error} />
    </>
  );
}
