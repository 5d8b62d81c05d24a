import type { ActivityChatView } from '../../../src-shared/ipc-contract.ts';
import { ActivityChange } from './activity-change.tsx';
import { changesCount, chatTitle, when } from './activity-format.ts';
import { UndoPanel, useUndoFlow } from './activity-undo.tsx';

/** One chat: who, since when, on which graphs; its changes newest first; Undo for all of them. */
export function ActivityChat(props: {
  chat: ActivityChatView;
  graph?: string;
  chats: readonly ActivityChatView[];
}) {
  const { chat, graph } = props;
  // With the view filtered to one graph, the chat's undo takes back only what it shows.
  const flow = useUndoFlow(graph ? { chat: chat.id, graph } : { chat: chat.id });
  const title = chatTitle(chat, props.chats);
  const pending = chat.changes.some((c) => c.undoable && !c.undone);
  const offersUndo = chat.kind === 'agent' && pending;
  // A person's undos are no chat that started: they say when the latest one was.
  const since =
    chat.kind === 'person' && chat.changes[0]
      ? `latest ${when(chat.changes[0].at)}`
      : `started ${when(chat.startedAt)}`;
  return (
    <li className="card activity-chat" aria-label={`${title}, ${since}`}>
      <div className="row">
        {/* Once nothing is left to undo, the focus comes back to the chat's title instead. */}
        <h3 className="strong grow" tabIndex={-1} ref={offersUndo ? undefined : flow.openerRef}>
          {title}
        </h3>
        <span className="muted small">{since}</span>
      </div>
      <div className="row">
        <span className="muted small grow">
          {chat.graphs.join(', ')} ·{' '}
          {chat.kind === 'person' ? runsCount(chat) : changesCount(chat.changes.length)}
        </span>
        {offersUndo && flow.phase.kind === 'idle' && (
          <button
            type="button"
            ref={flow.openerRef}
            disabled={flow.busy}
            onClick={flow.start}
            // Named by its chat: a screen reader's list of buttons tells one chat's from another's.
            aria-label={`${graph ? 'Undo this chat here…' : 'Undo this chat…'} (${title}, ${since})`}
          >
            {graph ? 'Undo this chat here…' : 'Undo this chat…'}
          </button>
        )}
      </div>
      <UndoPanel
        flow={flow}
        what={graph ? 'this chat’s changes to this graph' : 'every change of this chat'}
      />
      <ul className="activity-changes" aria-label={`Changes by ${title}`}>
        {chat.changes.map((change) => (
          <ActivityChange key={change.id} change={change} showGraph={chat.graphs.length > 1} />
        ))}
      </ul>
    </li>
  );
}

/** A person's entries are undos and redos, each naming the agents' changes it acted on. */
function runsCount(chat: ActivityChatView): string {
  const redos = chat.changes.filter((c) => c.isRedo).length;
  const undos = chat.changes.length - redos;
  const count = (n: number, what: string) => (n === 1 ? `1 ${what}` : `${n} ${what}s`);
  return [undos ? count(undos, 'undo') : '', redos ? count(redos, 'redo') : ''].filter(Boolean).join(', ');
}
