/**
 * A graph's content as the undo proofs compare it: every page and block with its uid, text or
 * title, parent, order, open/heading state and references, read straight from the emulator.
 */
import type { EmulatedGraph } from '../../emulator/index.ts';

export interface EntitySnapshot {
  uid: string;
  title?: string;
  string?: string;
  parent?: string;
  order?: number;
  heading?: number;
  open?: boolean;
  refs: string[];
}

const QUERY = `[:find (pull ?e [:block/uid :node/title :block/string :block/order :block/heading :block/open
  {:block/_children [:block/uid]} {:block/refs [:block/uid]}])
  :where (or [?e :node/title] [?e :block/string])]`;

type Raw = Record<string, unknown>;

/** Uids in the order the graph made them (entity ids only grow), whatever random uids they got. */
export function creationOrder(graph: EmulatedGraph): Map<string, number> {
  const rows = graph.run('data.q', [
    '[:find ?e ?u :where (or [?e :node/title] [?e :block/string]) [?e :block/uid ?u]]',
  ]) as Array<[number, string]>;
  return new Map(rows.map(([eid, uid]) => [uid, eid]));
}

export function graphSnapshot(graph: EmulatedGraph): EntitySnapshot[] {
  const rows = graph.run('data.q', [QUERY]) as Raw[][];
  return rows
    .map(([raw]) => {
      const r = raw as Raw;
      const parent = (r[':block/_children'] as Raw[] | undefined)?.[0]?.[':block/uid'] as string | undefined;
      const entity: EntitySnapshot = {
        uid: r[':block/uid'] as string,
        refs: ((r[':block/refs'] as Raw[] | undefined) ?? []).map((x) => x[':block/uid'] as string).sort(),
      };
      if (typeof r[':node/title'] === 'string') entity.title = r[':node/title'] as string;
      if (typeof r[':block/string'] === 'string') entity.string = r[':block/string'] as string;
      if (parent) entity.parent = parent;
      if (typeof r[':block/order'] === 'number') entity.order = r[':block/order'] as number;
      if (typeof r[':block/heading'] === 'number' && r[':block/heading'])
        entity.heading = r[':block/heading'] as number;
      if (typeof r[':block/open'] === 'boolean' && entity.title === undefined)
        entity.open = r[':block/open'] as boolean;
      return entity;
    })
    .sort((a, b) => (a.uid < b.uid ? -1 : 1));
}
