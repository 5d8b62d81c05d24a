import { useId, useState } from 'react';
import { ACCESS_LEVELS, type AccessLevel } from '../../../src-shared/constants.ts';
import {
  DEFAULT_TOOLSETS,
  TOOLSET_NAMES,
  TOOLSET_SUMMARIES,
  type ToolsetName,
} from '../../../src-shared/toolsets.ts';
import type { GraphView, RemoteRequestView } from '../../../src-shared/ipc-contract.ts';
import { useGraphs, useRemote } from '../../stores/stores-context.tsx';
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
  const graphs = useGraphs((s) => s.graphs);
  // Every graph by default, as `roam-mcp remote approve` without --graphs: the person narrows it.
  const [left, setLeft] = useState<string[]>([]);
  const chosen = graphs.filter((g) => !left.includes(g.id)).map((g) => g.id);
  const unchanged =
    toolsets.length === DEFAULT_TOOLSETS.length && toolsets.every((t) => DEFAULT_TOOLSETS.includes(t));
  const choice = {
    ...(level ? { level } : {}),
    ...(unchanged ? {} : { toolsets }),
    ...(chosen.length < graphs.length ? { graphs: chosen } : {}),
  };
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
      <GraphChoices graphs={graphs} left={left} setLeft={setLeft} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy || toolsets.length === 0 || (graphs.length > 0 && chosen.length === 0)}
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

/** The graphs its chats reach: all ticked means every graph, also one added later. */
function GraphChoices(props: { graphs: GraphView[]; left: string[]; setLeft(left: string[]): void }) {
  if (props.graphs.length === 0) return null;
  const reached = props.graphs.filter((g) => !props.left.includes(g.id));
  const toggle = (id: string, on: boolean) =>
    props.setLeft(on ? props.left.filter((l) => l !== id) : [...props.left, id]);
  return (
    <fieldset className="remote-graphs">
      <legend className="small">
        Graphs its chats reach:{' '}
        {reached.length === props.graphs.length
          ? 'all (also graphs you add later)'
          : reached.map((g) => g.nickname).join(', ') || 'none (choose at least one)'}
      </legend>
      {props.graphs.map((graph) => (
        <label key={graph.id} className="checkbox small">
          <input
            type="checkbox"
            checked={!props.left.includes(graph.id)}
            onChange={(event) => toggle(graph.id, event.target.checked)}
          />
          <span>
            <span className="strong">{graph.nickname}</span>
            {graph.nickname !== graph.name ? ` (${graph.name})` : ''}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
