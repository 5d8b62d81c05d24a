import type { ClientChangePreview } from '../../src-shared/ipc-contract.ts';

/** Before/after of a client's config file, so the user sees exactly what will change. */
export function ClientChangePreviewView(props: { preview: ClientChangePreview }) {
  const { preview } = props;
  return (
    <div className="preview" aria-label="Change preview">
      <p className="small">
        {preview.action === 'install' ? 'Adds Roam Companion to' : 'Removes Roam Companion from'}{' '}
        <code>{preview.configPath}</code>:
      </p>
      <div className="diff">
        <figure>
          <figcaption className="small muted">Before</figcaption>
          <pre aria-label="Before">{preview.before ?? '(file does not exist)'}</pre>
        </figure>
        <figure>
          <figcaption className="small muted">After</figcaption>
          <pre aria-label="After">{preview.after ?? '(file removed)'}</pre>
        </figure>
      </div>
    </div>
  );
}
