import { useGraphs } from '../../stores/stores-context.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';

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
  const { error, busy, run } = useActionError();
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
        <button type="button" onClick={() => void run(dismiss)}>
          Not now
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void run(runImport)}>
          Import {what}
        </button>
      </div>
      <ActionError error={error} />
    </section>
  );
}
