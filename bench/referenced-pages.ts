import type { Emulator } from '../test/emulator/index.ts';

/** The graph's page titles with at least one reference, most referenced first (the benches' hubs). */
export function pagesByReferences(emulator: Emulator, graph: string): string[] {
  const refs = emulator
    .graph(graph)
    .run('data.q', ['[:find ?t (count ?b) :where [?p :node/title ?t] [?b :block/refs ?p]]']) as Array<
    [string, number]
  >;
  return refs.sort((a, b) => b[1] - a[1]).map(([title]) => title);
}
