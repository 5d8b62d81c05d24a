import { useState } from 'react';
import { DEFAULT_GRAPH_TYPE, graphId, type GraphType } from '../../../src-shared/constants.ts';
import { useGraphs } from '../../stores/stores-context.tsx';

export const typeIn = 'type-in';

export type AddGraphPicker = ReturnType<typeof useAddGraphPicker>;

/** Which graph the add form is about: one Roam listed and we have not added yet, or a typed name. */
export function useAddGraphPicker() {
  const available = useGraphs((s) => s.available);
  const configured = useGraphs((s) => s.graphs);
  const [picked, pick] = useState('');
  const [typedName, setTypedName] = useState('');
  const [typedType, setTypedType] = useState<GraphType>(DEFAULT_GRAPH_TYPE);
  // A public graph (e.g. Roam's `help`): not the user's, so Roam does not list it; hosted, read-only.
  const [publicGraph, setPublicGraph] = useState(false);
  const unconfigured = available.filter((a) => !configured.some((g) => g.id === graphId(a)));
  const choice = picked || (unconfigured.length ? '' : typeIn);
  const chosen = unconfigured.find((a) => graphId(a) === choice);
  const typed = { name: typedName.trim(), type: publicGraph ? ('hosted' as const) : typedType };
  return {
    unconfigured,
    choice,
    pick,
    typedName,
    setTypedName,
    typedType: typed.type,
    setTypedType,
    /** Only for a typed name: a public graph, added read-only. */
    publicGraph: choice === typeIn && publicGraph,
    setPublicGraph,
    /** Whether Roam lists the typed graph (a typo shows before the token request fails). */
    listed: available.some((a) => graphId(a) === graphId(typed)),
    name: choice === typeIn ? typed.name : (chosen?.name ?? ''),
    type: choice === typeIn ? typed.type : (chosen?.type ?? DEFAULT_GRAPH_TYPE),
  };
}
