import { useState } from 'react';
import { graphId, type GraphType } from '../../src-shared/constants.ts';
import { useGraphs } from '../stores/stores-context.tsx';

export const typeIn = 'type-in';

export type AddGraphPicker = ReturnType<typeof useAddGraphPicker>;

/** Which graph the add form is about: one Roam listed and we have not added yet, or a typed name. */
export function useAddGraphPicker() {
  const available = useGraphs((s) => s.available);
  const configured = useGraphs((s) => s.graphs);
  const [picked, pick] = useState('');
  const [typedName, setTypedName] = useState('');
  const [typedType, setTypedType] = useState<GraphType>('hosted');
  const unconfigured = available.filter((a) => !configured.some((g) => g.id === graphId(a)));
  const choice = picked || (unconfigured.length ? '' : typeIn);
  const chosen = unconfigured.find((a) => graphId(a) === choice);
  const typed = { name: typedName.trim(), type: typedType };
  return {
    unconfigured,
    choice,
    pick,
    typedName,
    setTypedName,
    typedType,
    setTypedType,
    /** Whether Roam lists the typed graph (a typo shows before the token request fails). */
    listed: available.some((a) => graphId(a) === graphId(typed)),
    name: choice === typeIn ? typed.name : (chosen?.name ?? ''),
    type: choice === typeIn ? typedType : (chosen?.type ?? 'hosted'),
  };
}
