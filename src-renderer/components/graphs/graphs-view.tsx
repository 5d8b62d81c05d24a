import { useState } from 'react';
import { useApp, useGraphs } from '../../stores/stores-context.tsx';
import { AddGraphForm } from './add-graph-form.tsx';
import { GraphRow } from './graph-row.tsx';
import { ImportOffer } from './import-offer.tsx';
import { LoadGate } from '../shared/load-gate.tsx';
import { useReturnFocus } from '../shared/return-focus.ts';

type Focus = { graphId: string; at: number } | null;

export function GraphsView(props: { onShowBlocked(): void }) {
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // The graph just added: its row (with its token request) is brought into view.
  const [added, setAdded] = useState<Focus>(null);
  const returnFocus = useReturnFocus<'add'>();

  return (
    <div className="view">
      {notice && (
        <div role="alert" className="notice error">
          <p>{notice}</p>
          <button type="button" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      <ImportOffer />
      {adding ? (
        <AddGraphForm
          onCancel={() => {
            returnFocus.arm('add');
            setAdding(false);
          }}
          onDone={(outcome) => {
            setAdding(false);
            setNotice(outcome.problem ?? null);
            setAdded({ graphId: outcome.graphId, at: Date.now() });
          }}
        />
      ) : (
        <div className="toolbar">
          <h2>Graphs</h2>
          <button
            type="button"
            className="primary"
            ref={returnFocus.ref('add')}
            onClick={() => setAdding(true)}
          >
            Add graph
          </button>
        </div>
      )}
      <GraphList added={added} onShowBlocked={props.onShowBlocked} />
    </div>
  );
}

function GraphList(props: { added: Focus; onShowBlocked(): void }) {
  const graphs = useGraphs((s) => s.graphs);
  const load = useGraphs((s) => s.load);
  const refresh = useGraphs((s) => s.refresh);
  const linked = useApp((s) => s.focus);
  // The newer of a deep link's graph and the graph just added.
  const focus = [linked, props.added].reduce<Focus>((a, b) => (b && (!a || b.at > a.at) ? b : a), null);
  return (
    <LoadGate state={load} what="your graphs" onRetry={() => void refresh()}>
      {graphs.length === 0 ? (
        <div className="empty">
          <p className="strong">No graphs yet</p>
          <p className="muted">Add a graph to let your AI clients read (or write) it through Roam Desktop.</p>
        </div>
      ) : (
        <ul className="list" aria-label="Graphs">
          {graphs.map((graph) => (
            <GraphRow
              key={graph.id}
              graph={graph}
              focus={focus?.graphId === graph.id ? focus : null}
              onShowBlocked={props.onShowBlocked}
            />
          ))}
        </ul>
      )}
    </LoadGate>
  );
}
