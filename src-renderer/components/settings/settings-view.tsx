import { useId, useState } from 'react';
import { ACCESS_LEVELS, type AccessLevel } from '../../../src-shared/constants.ts';
import type { AppSettings } from '../../../src-shared/ipc-contract.ts';
import { useApp } from '../../stores/stores-context.tsx';
import { accessLevelText } from '../shared/access-levels.ts';
import { LoadGate } from '../shared/load-gate.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { UploadFoldersField } from './upload-folders-field.tsx';
import { ConfirmField } from '../shared/confirm-field.tsx';

export function SettingsView() {
  const settings = useApp((s) => s.settings);
  const load = useApp((s) => s.settingsLoad);
  const refresh = useApp((s) => s.refresh);
  const change = useApp((s) => s.changeSettings);
  const { error, run } = useActionError();
  const levelId = useId();
  // Each change is saved at once; the page says so, or why not.
  const [saved, setSaved] = useState<string | null>(null);
  const persist = async (patch: Partial<AppSettings>, what: string) => {
    setSaved(null);
    await change(patch);
    setSaved(`${what} saved.`);
  };
  const save = (patch: Partial<AppSettings>, what: string) => void run(() => persist(patch, what));
  // Upload folders say their own outcome beside the list.
  const saveFolders = async (uploadFolders: string[]) => {
    setSaved(null);
    await change({ uploadFolders });
  };
  return (
    <div className="view">
      <h2>Settings</h2>
      <LoadGate state={load} what="settings" onRetry={() => void refresh()}>
        {settings && (
          <div className="card form">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={settings.launchAtLogin}
                onChange={(event) => save({ launchAtLogin: event.target.checked }, 'Launch at login')}
              />
              Launch at login
            </label>
            <ConfirmField
              value={settings.confirm ?? 'destructive'}
              note="For every graph without a choice of its own; Edit on a graph gives it one."
              onChange={(confirm) => save({ confirm }, 'Ask me before')}
            />
            <div className="field">
              <label htmlFor={levelId}>Default access level for new tokens</label>
              <select
                id={levelId}
                value={settings.defaultAccessLevel}
                onChange={(event) =>
                  save({ defaultAccessLevel: event.target.value as AccessLevel }, 'Default access level')
                }
              >
                {ACCESS_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {accessLevelText[level].label}
                  </option>
                ))}
              </select>
              <span className="muted small">{accessLevelText[settings.defaultAccessLevel].explanation}</span>
            </div>
            {/* Under the settings it is about, not below the upload folders. */}
            <p role="status" className="small muted">
              {saved ?? ''}
            </p>
            <ActionError error={error} />
          </div>
        )}
        {settings && <UploadFoldersField folders={settings.uploadFolders ?? []} save={saveFolders} />}
      </LoadGate>
      <DiagnosticsCard />
    </div>
  );
}

/** roam-mcp doctor's checks, copied by main (the window never holds them), with what was found. */
function DiagnosticsCard() {
  const copyDiagnostics = useApp((s) => s.copyDiagnostics);
  const { error, run } = useActionError();
  const [found, setFound] = useState<string | null>(null);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const copy = () =>
    void run(async () => {
      setFound(null);
      const { problems, warnings } = await copyDiagnostics();
      setFound(
        `Diagnostics copied (${plural(problems, 'problem')}, ${plural(warnings, 'warning')}): paste them into your bug report.`,
      );
    });
  return (
    <div className="card form">
      <p className="small muted">
        The same checks as <code>roam-mcp doctor</code> (Roam, graphs, AI clients, the HTTP server, the
        journal, file modes), with no token, key or note text in them.
      </p>
      <button type="button" onClick={copy}>
        Copy diagnostics
      </button>
      <p role="status" className="small muted">
        {found ?? ''}
      </p>
      <ActionError error={error} />
    </div>
  );
}
