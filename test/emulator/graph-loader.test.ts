import datascript from 'datascript';
import { describe, expect, it } from 'vitest';
import { demoGraphContent } from './demo-graph.ts';
import { fastInitDb } from './fast-init-db.ts';
import { generateGraph } from './generate-graph.ts';
import { graphDatoms } from './graph-loader.ts';
import { ROAM_SCHEMA } from './roam-graph.ts';

const allDatoms = (db: datascript.DB, index: string) =>
  [...datascript.datoms(db, index)].map((d) => [d.e, d.a, d.v]);

describe('fastInitDb', () => {
  it.each([
    ['the demo graph', demoGraphContent()],
    ['a generated graph', generateGraph({ blocks: 600, seed: 9 })],
  ])('builds the same indexes as datascript init_db for %s', (_label, pages) => {
    const datoms = graphDatoms('g', pages);
    const fast = fastInitDb(datoms, ROAM_SCHEMA);
    const reference = datascript.init_db(datoms, ROAM_SCHEMA);
    for (const index of [':eavt', ':aevt', ':avet']) {
      expect(allDatoms(fast, index)).toEqual(allDatoms(reference, index));
    }
    expect(datascript.serializable(fast)).toEqual(datascript.serializable(reference));
  });

  it('drops duplicate datoms like a set, and stays writable', () => {
    const db = fastInitDb(
      [
        [1, ':block/uid', 'a'],
        [1, ':block/uid', 'a'],
        [2, ':block/refs', 1],
        [2, ':block/uid', 'b'],
      ],
      ROAM_SCHEMA,
    );
    expect(allDatoms(db, ':eavt')).toEqual([
      [1, ':block/uid', 'a'],
      [2, ':block/refs', 1],
      [2, ':block/uid', 'b'],
    ]);
    const conn = datascript.conn_from_db(db);
    const report = datascript.transact(conn, [{ ':db/id': -1, ':block/uid': 'c', ':block/refs': [1] }]);
    expect(datascript.resolve_tempid(report.tempids, -1)).toBe(3);
    expect(
      datascript.q('[:find ?u :where [?b ":block/refs" 1] [?b ":block/uid" ?u]]', datascript.db(conn)),
    ).toEqual(expect.arrayContaining([['b'], ['c']]));
  });
});
