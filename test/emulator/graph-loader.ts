/**
 * Builds a graph's database from page specs in one go (all datoms at once, see fast-init-db.ts):
 * transacting 100,000 blocks one entity at a time would take half a minute.
 */
import type { GraphType } from '../../src-shared/roam-config.ts';
import { fastInitDb } from './fast-init-db.ts';
import { parseRefs } from './ref-parser.ts';
import { dateToPageUid, pageTitleToDate } from './roam-dates.ts';
import { AI_USER_UID, HUMAN_USER_UID, ROAM_SCHEMA, RoamGraph } from './roam-graph.ts';
import { SeededRandom } from './seeded-random.ts';
import type { BlockSpec, PageSpec } from './types.ts';

/** Creation times of non-daily content start here, one minute apart, so sorting is stable. */
const BASE_TIME = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

export type Datom = [number, string, unknown];

export function loadGraph(name: string, type: GraphType, pages: readonly PageSpec[]): RoamGraph {
  return new RoamGraph(name, type, fastInitDb(graphDatoms(name, pages), ROAM_SCHEMA));
}

/** Every datom of the graph the pages describe, referenced-but-missing pages included. */
export function graphDatoms(name: string, pages: readonly PageSpec[]): Datom[] {
  const datoms: Datom[] = [];
  emitGraphDatoms(name, pages, (datom) => datoms.push(datom));
  return datoms;
}

/**
 * The same datoms, handed over one at a time in the same order (and so with the same eids), for
 * stores that are not DataScript (test/scale's column store of a million blocks).
 */
export function emitGraphDatoms(
  name: string,
  pagesIn: readonly PageSpec[],
  emit: (datom: Datom) => void,
): void {
  const pageSpecs = pagesIn;
  const datoms = { push: (...added: Datom[]) => added.forEach(emit) };
  const random = new SeededRandom(0x5eed);
  const uids = new Set<string>();
  const titles = new Map<string, number>();
  const pendingRefs: Array<{ eid: number; text: string }> = [];
  const blockEids = new Map<string, number>();
  const blockUid = (eid: number, uid: string) => {
    blockEids.set(uid, eid);
    return uid;
  };
  let nextEid = 1;
  let clock = BASE_TIME;
  let resolving = false;
  const pages: number[] = [];

  const claimUid = (uid: string | undefined, what: string): string => {
    if (uid !== undefined) {
      if (uids.has(uid)) throw new Error(`Graph '${name}': uid "${uid}" is used twice (${what}).`);
      uids.add(uid);
      return uid;
    }
    let fresh = random.uid();
    while (uids.has(fresh)) fresh = random.uid();
    uids.add(fresh);
    return fresh;
  };

  const addPage = (title: string, uid: string | undefined, time: number): number => {
    if (titles.has(title)) throw new Error(`Graph '${name}': two pages are titled "${title}".`);
    const eid = nextEid++;
    const date = pageTitleToDate(title);
    const dailyUid = date ? dateToPageUid(date) : undefined;
    const pageUid = claimUid(uid ?? (dailyUid && !uids.has(dailyUid) ? dailyUid : undefined), title);
    titles.set(title, eid);
    // Pages loaded with the content are `((uid))` targets too; those created for a reference are not.
    datoms.push(
      [eid, ':node/title', title],
      [eid, ':block/uid', resolving ? pageUid : blockUid(eid, pageUid)],
    );
    datoms.push([eid, ':create/time', time], [eid, ':edit/time', time], [eid, ':page/edit-time', time]);
    pages.push(eid);
    if (date && pageUid === dailyUid) datoms.push([eid, ':log/id', date.getTime()]);
    return eid;
  };

  const addBlocks = (
    specs: readonly BlockSpec[],
    parent: number,
    page: number,
    parents: number[],
    time: () => number,
  ) => {
    specs.forEach((spec, order) => {
      const block = typeof spec === 'string' ? { string: spec } : spec;
      const eid = nextEid++;
      const at = time();
      datoms.push(
        [eid, ':block/uid', blockUid(eid, claimUid(block.uid, `block "${block.string.slice(0, 40)}"`))],
        [eid, ':block/string', block.string],
        [eid, ':block/order', order],
        [eid, ':block/page', page],
        [eid, ':block/open', true],
        [eid, ':create/time', at],
        [eid, ':edit/time', at],
        [parent, ':block/children', eid],
      );
      for (const ancestor of parents) datoms.push([eid, ':block/parents', ancestor]);
      if (block.heading) datoms.push([eid, ':block/heading', block.heading]);
      pendingRefs.push({ eid, text: block.string });
      if (block.children?.length) addBlocks(block.children, eid, page, [...parents, eid], time);
    });
  };

  for (const spec of pageSpecs) {
    const date = spec.daily ? pageTitleToDate(spec.title) : undefined;
    if (spec.daily && !date) {
      throw new Error(
        `Graph '${name}': daily page "${spec.title}" needs a title like "November 22nd, 2026".`,
      );
    }
    let time = date ? date.getTime() + 9 * 60 * MINUTE : (clock += MINUTE);
    const page = addPage(spec.title, spec.uid, time);
    addBlocks(spec.children ?? [], page, page, [page], () => (date ? (time += MINUTE) : (clock += MINUTE)));
  }

  resolving = true;
  for (const { eid, text } of pendingRefs) {
    const parsed = parseRefs(text);
    for (const title of parsed.pageTitles) {
      const target = titles.get(title) ?? addPage(title, undefined, (clock += MINUTE));
      datoms.push([eid, ':block/refs', target]);
    }
    for (const uid of parsed.blockUids) {
      const target = blockEids.get(uid);
      if (target !== undefined) datoms.push([eid, ':block/refs', target]);
    }
  }
  // Everything loaded was written by the signed-in person; the users come last so content eids
  // stay the same as before users existed.
  const human = nextEid++;
  const ai = nextEid++;
  datoms.push([human, ':user/uid', HUMAN_USER_UID], [ai, ':user/uid', AI_USER_UID]);
  for (let eid = 1; eid < human; eid++) datoms.push([eid, ':create/user', human], [eid, ':edit/user', human]);
  for (const page of pages) datoms.push([page, ':page/edit-user', human]);
}
