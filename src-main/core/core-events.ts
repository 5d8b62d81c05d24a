import type { EventChannel, EventPayloads } from '../../src-shared/ipc-contract.ts';

export type Emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]) => void;

export interface CoreEvents {
  emit: Emit;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

/** The core's push events (graphs, tokens, status) fanned out to every subscribed window or stream. */
export function createCoreEvents(): CoreEvents {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  return {
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) (listener as (p: typeof payload) => void)(payload);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}

/** An emit that drops a payload equal to the last one sent on its channel (a repeat tells no one anything). */
export function sendsOnlyChanges(emit: Emit): Emit {
  const last = new Map<EventChannel, string>();
  return (event, payload) => {
    const serialized = JSON.stringify(payload);
    if (last.get(event) === serialized) return;
    last.set(event, serialized);
    emit(event, payload);
  };
}
