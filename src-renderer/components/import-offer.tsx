import { useState } from 'react';
import { describeError } from '../bridge/bridge-error.ts';
import { useGraphs } from '../stores/stores-context.tsx';

/** What the last import did (also when every graph was already here). */
function ImportNote() {
  const note = useGraphs((s) => s.importNote);
  const clear = useGraphs((s) => s.clearImportNote);
  if (!note) return null;
  return (
    <section className="card notice" aria-label="Import result" role="status">
      <p>{note}</p>
      <div className="actions">
        <button type="button" onClick={clear}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

/** Offers, with the user's consent, the graphs already configured for the official roam-mcp. */
export function ImportOffer() {
  const offer = useGraphs((s) => s.importOffer);
  const runImport = useGraphs((s) => s.runImport);
  const dismiss = useGraphs((s) => s.dismissImport);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!offer) return <ImportNote />;
  const what =
    offer.graphCount === 1 ? '1 graph' : offer.graphCount ? `${offer.graphCount} graphs` : 'graphs';
  return (
    <section className="card notice" aria-label="Import graphs">
      <p>
        Found {what} in <code>{offer.path}</code> (the config of Roam’s MCP server). Import them, with their
        tokens, so you manage them here? The file stays as it is.
      </p>
      <div className="actions">
        <button
          type="button"
          onClick={() => void dismiss().catch((failure: unknown) => setError(describeError(failure)))}
        >
          Not now
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            setError(null);
            runImport()
              .catch((failure: unknown) => setError(describeError(failure)))
              .finally(() => setBusy(false));
          }}
        >
          Import {what}
        </button>
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </section>
  );
}
