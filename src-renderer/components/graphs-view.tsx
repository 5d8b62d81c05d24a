import { useMemo, useState } from 'react';
import { useApp, useGraphs, useTokens } from '../stores/stores-context.tsx';
import { AddGraphForm } from './add-graph-form.tsx';
import { GraphRow } from './graph-row.tsx';
import { ImportOffer } from './import-offer.tsx';
import { LoadGate } from './load-gate.tsx';
import { TokenRequestPanel } from './token-request-panel.tsx';

export function GraphsView(props: { onShowBlocked(): void }) {
  const graphs = useGraphs((s) => s.graphs);
  const requests = useTokens((s) => s.requests);
  const dismissed = useTokens((s) => s.dismissed);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const panels = useMemo(
    () =>
      Object.values(requests)
        .filter((r) => !dismissed[r.graphId])
        .map((r) => ({ request: r, graph: graphs.find((g) => g.id === r.graphId) }))
        .filter((p) => p.graph !== undefined)
        .sort((a, b) => b.request.startedAt - a.request.startedAt),
    [requests, dismissed, graphs],
  );

  return (
    <div className="view">
      {panels.map(({ request, graph }) => (
        <TokenRequestPanel
          key={request.graphId}
          request={request}
          label={graph?.nickname ?? request.graphId}
          onShowBlocked={props.onShowBlocked}
        />
      ))}
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
          onCancel={() => setAdding(false)}
          onDone={(outcome) => {
            setAdding(false);
            setNotice(outcome.problem ?? null);
          }}
        />
      ) : (
        <div className="toolbar">
          <h2>Graphs</h2>
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add graph
          </button>
        </div>
      )}
      <GraphList />
    </div>
  );
}

function GraphList() {
  const graphs = useGraphs((s) => s.graphs);
  const load = useGraphs((s) => s.load);
  const refresh = useGraphs((s) => s.refresh);
  const focus = useApp((s) => s.focus);
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
            <GraphRow key={graph.id} graph={graph} focus={focus?.graphId === graph.id ? focus : null} />
          ))}
        </ul>
      )}
    </LoadGate>
  );
}
