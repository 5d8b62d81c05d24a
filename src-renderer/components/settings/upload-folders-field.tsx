import { useId, useState, type FormEvent } from 'react';
import { ActionError, useActionError } from '../shared/action-error.tsx';

/** A folder path as this computer writes them (the page runs where the tray does). */
function examplePath(): string {
  const platform = navigator.userAgent;
  if (/Windows/.test(platform)) return 'C:\\Users\\you\\Pictures';
  if (/Mac OS X|Macintosh/.test(platform)) return '/Users/you/Pictures';
  return '/home/you/Pictures';
}

/**
 * Settings > Upload folders: where an agent's file_upload may read local files (none by default;
 * docs/mcp.md, Upload folders). The core checks each added path (absolute, existing, no hidden
 * folder) and says why one is refused; the running MCP servers get the list at once.
 */
export function UploadFoldersField(props: { folders: string[]; save(folders: string[]): Promise<unknown> }) {
  const { folders, save } = props;
  const [typed, setTyped] = useState('');
  const [saved, setSaved] = useState('');
  const { error, busy, run } = useActionError();
  const inputId = useId();
  const hintId = useId();
  const change = (next: string[], said: string) =>
    void run(async () => {
      setSaved('');
      await save(next);
      setSaved(said);
    });
  const add = (event: FormEvent) => {
    event.preventDefault();
    const folder = typed.trim();
    if (!folder) return;
    void run(async () => {
      setSaved('');
      await save([...folders, folder]);
      setTyped('');
      setSaved(`Added ${folder}: agents can upload files from it now.`);
    });
  };
  return (
    <section className="card form" aria-labelledby={`${inputId}-heading`}>
      <h3 id={`${inputId}-heading`}>Upload folders</h3>
      <p className="muted small" id={hintId}>
        Agents can upload local files to Roam only from these folders (and their subfolders, never hidden
        ones). None by default.
      </p>
      {folders.length > 0 ? (
        <ul className="list" aria-label="Upload folders">
          {folders.map((folder) => (
            <li key={folder} className="row">
              <code className="path grow">{folder}</code>
              <button
                type="button"
                disabled={busy}
                aria-label={`Remove upload folder ${folder}`}
                onClick={() =>
                  change(
                    folders.filter((f) => f !== folder),
                    `Removed ${folder}: agents can no longer upload files from it.`,
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="small">No upload folder: agents cannot upload local files.</p>
      )}
      <form className="row" onSubmit={add} aria-label="Add an upload folder">
        <label htmlFor={inputId} className="visually-hidden">
          Folder to add (absolute path)
        </label>
        <input
          id={inputId}
          className="grow"
          value={typed}
          placeholder={examplePath()}
          aria-describedby={hintId}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" disabled={busy || !typed.trim()}>
          Add folder
        </button>
      </form>
      <p role="status" className="small muted">
        {saved}
      </p>
      <ActionError error={error} />
    </section>
  );
}
