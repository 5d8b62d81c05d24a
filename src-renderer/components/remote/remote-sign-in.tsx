import { useId, useState } from 'react';
import { ACCESS_LEVELS, type AccessLevel } from '../../../src-shared/constants.ts';
import {
  DEFAULT_TOOLSETS,
  TOOLSET_NAMES,
  TOOLSET_SUMMARIES,
  type ToolsetName,
} from '../../../src-shared/toolsets.ts';
import type { RemoteRequestView } from '../../../src-shared/ipc-contract.ts';
import { useRemote } from '../../stores/stores-context.tsx';
import { accessLevelText } from '../shared/access-levels.ts';
import { ActionError, useActionError } from '../shared/action-error.tsx';

const SCOPE_WORDS: Record<string, string> = { mcp: "Roam Companion's tools" };
const until = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' });

/**
 * One sign-in waiting here: the person checks the code against the page the chat app opened and
 * where its answer goes (a matching code does not stop a phishing link: the host is what tells),
 * then chooses what it may do.
 */
export function RemoteSignIn({ request }: { request: RemoteRequestView }) {
  const approve = useRemote((s) => s.approve);
  const deny = useRemote((s) => s.deny);
  const { error, busy, run } = useActionError();
  const [level, setLevel] = useState<AccessLevel | ''>('');
  const [toolsets, setToolsets] = useState<ToolsetName[]>([...DEFAULT_TOOLSETS]);
  const unchanged =
    toolsets.length === DEFAULT_TOOLSETS.length && toolsets.every((t) => DEFAULT_TOOLSETS.includes(t));
  const choice = { ...(level ? { level } : {}), ...(unchanged ? {} : { toolsets }) };
  return (
    <li className="card remote-sign-in">
      <p className="strong">
        {request.clientName} asks to connect{' '}
        {request.verified ? (
          <span className="badge ok-text">verified</span>
        ) : (
          <span className="badge warning-text">unverified</span>
        )}
      </p>
      {!request.verified && (
        <p className="small warning-text">
          This name is the app&apos;s own claim. Approve only if you started this sign-in just now.
        </p>
      )}
      <p className="small">Its answer goes to</p>
      <p className="remote-host">{request.redirectHost}</p>
      <p className="small">
        The sign-in page shows the code <span className="remote-code">{request.code}</span>: approve only if
        it is the same.
      </p>
      <p className="small muted">
        Asks for {request.scopes.map((s) => SCOPE_WORDS[s] ?? s).join(', ')} · waits until{' '}
        {until(request.expiresAt)}
      </p>
      <SignInChoices level={level} setLevel={setLevel} toolsets={toolsets} setToolsets={setToolsets} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy || toolsets.length === 0}
          onClick={() => void run(() => approve(request.id, choice))}
        >
          Approve {request.clientName}
        </button>
        <button type="button" disabled={busy} onClick={() => void run(() => deny(request.id))}>
          Deny
        </button>
      </div>
      <ActionError error={error} />
    </li>
  );
}

function SignInChoices(props: {
  level: AccessLevel | '';
  setLevel(level: AccessLevel | ''): void;
  toolsets: ToolsetName[];
  setToolsets(toolsets: ToolsetName[]): void;
}) {
  const levelId = useId();
  const toggle = (set: ToolsetName, on: boolean) =>
    props.setToolsets(TOOLSET_NAMES.filter((name) => (name === set ? on : props.toolsets.includes(name))));
  return (
    <>
      <div className="field">
        <label htmlFor={levelId}>What its chats may do, in every graph you offer agents</label>
        <select
          id={levelId}
          value={props.level}
          onChange={(event) => props.setLevel(event.target.value as AccessLevel | '')}
        >
          <option value="">Each graph&apos;s own level</option>
          {ACCESS_LEVELS.map((level) => (
            <option key={level} value={level}>
              At most: {accessLevelText[level].label}
            </option>
          ))}
        </select>
        <span className="muted small">
          {props.level ? accessLevelText[props.level].explanation : 'As set for each graph in Graphs.'}
        </span>
      </div>
      <details className="toolsets">
        <summary>Toolsets: {props.toolsets.join(', ') || 'none (choose at least one)'}</summary>
        <fieldset>
          <legend className="small">The tools its chats get</legend>
          {TOOLSET_NAMES.map((set) => (
            <label key={set} className="checkbox small">
              <input
                type="checkbox"
                checked={props.toolsets.includes(set)}
                onChange={(event) => toggle(set, event.target.checked)}
              />
              <span>
                <span className="strong">{set}</span>: {TOOLSET_SUMMARIES[set]}
              </span>
            </label>
          ))}
        </fieldset>
      </details>
    </>
  );
}
