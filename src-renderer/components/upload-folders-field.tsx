import { useId, useState, type FormEvent } from 'react';
import { ActionError, useActionError } from './action-error.tsx';

/**
 * Settings > Upload folders: where an agent's file_upload may read local files (none by default;
 * docs/mcp.md, Upload folders). The core checks each path (absolute, no dot-folder) and says why
 * one is refused; the running MCP servers get the list at once.
 */
export function UploadFoldersField(props: { folders: string[]; save(folders: string[]): Promise<unknown> }) {
  const { folders, save } = props;
  const [typed, setTyped] = useState('');
  const { error, busy, run } = useActionError();
  const inputId = useId();
  const hintId = useId();
  const add = (event: FormEvent) => {
    event.preventDefault();
    const folder = typed.trim();
    if (!folder) return;
    void run(async () => {
      await save([...folders, folder]);
      setTyped('');
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
                onClick={() => void run(() => save(folders.filter((f) => f !== folder)))}
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
          placeholder="/Users/you/Pictures"
          aria-describedby={hintId}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" disabled={busy || !typed.trim()}>
          Add folder
        </button>
      </form>
      <ActionError error={error} />
    </section>
  );
}
