import { useState } from 'react';
import { useActivity } from '../../stores/stores-context.tsx';
import { ActivityChat } from './activity-chat.tsx';
import { changesCount, feedGraphs, filterByGraph } from './activity-format.ts';
import { LoadGate } from '../shared/load-gate.tsx';

/** Every agent change on this machine, live, grouped by chat, newest first; undo from here. */
export function ActivityView() {
  const feed = useActivity((s) => s.feed);
  const load = useActivity((s) => s.load);
  const refresh = useActivity((s) => s.refresh);
  const [graph, setGraph] = useState('');
  const graphs = feedGraphs(feed);
  const shown = graphs.includes(graph) ? graph : '';
  const chats = filterByGraph(feed.chats, shown);
  const graphName = chats[0]?.changes[0]?.graph;
  return (
    <div className="view">
      <div className="toolbar">
        <h2>Agent activity</h2>
        {graphs.length > 0 && (
          <label className="activity-filter small">
            Graph{' '}
            <select value={graph} onChange={(event) => setGraph(event.target.value)}>
              <option value="">All graphs</option>
              {graphs.map((g) => (
                <option key={g}>{g}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <LoadGate state={load} what="agent activity" onRetry={() => void refresh()}>
        {feed.chats.length === 0 ? (
          <EmptyActivity />
        ) : (
          <>
            <p className="muted small">{`${changesCount(feed.today)} by agents today. Newest first.`}</p>
            <ul className="list" aria-label="Chats">
              {chats.map((chat) => (
                <ActivityChat
                  key={chat.id}
                  chat={chat}
                  chats={feed.chats}
                  {...(shown && graphName ? { graph: graphName } : {})}
                />
              ))}
            </ul>
            {feed.truncated && (
              <p className="muted small">
                Older changes are not shown here: list them with <code>roam-mcp changes</code>.
              </p>
            )}
          </>
        )}
      </LoadGate>
    </div>
  );
}

function EmptyActivity() {
  return (
    <div className="empty muted">
      <p>No agent has changed a graph yet.</p>
      <p>
        When an AI client edits, adds or deletes something in one of your graphs, each change appears here as
        it happens, grouped by chat, and you can undo a change or a whole chat.
      </p>
    </div>
  );
}
