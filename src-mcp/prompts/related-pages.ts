/**
 * Pages related to some seed pages by link proximity, each with why: a direct link (either
 * direction), or a page both are linked with — both link to it (a shared tag or topic), both are
 * linked from it (mentioned together there, e.g. on the same daily note), or a path through it.
 * A shared page counts less the more pages it links with (Adamic–Adar), so [[TODO]] or a busy
 * daily note relates little. Computed from the link index, which holds no hidden block's links.
 */
import { degree, type LinkIndex } from '../navigation/link-index.ts';
import { link, plural } from './prompt-text.ts';

/** Pages linked with more pages than this are not walked through: they relate nearly everything. */
const HUB_DEGREE = 2000;
/** Reasons kept per related page, strongest first. */
const REASONS = 3;

export interface RelatedPage {
  id: number;
  score: number;
  /** Why, strongest first (at most three), and how many weaker reasons were left out. */
  reasons: string[];
  moreReasons: number;
}

interface Candidate {
  score: number;
  reasons: Array<[number, string]>;
}

/** The `limit` pages closest to `seeds` (seeds themselves excluded), best first. */
export function relatedPages(index: LinkIndex, seeds: readonly number[], limit: number): RelatedPage[] {
  const seedSet = new Set(seeds);
  const found = new Map<number, Candidate>();
  const add = (id: number, weight: number, reason: string) => {
    if (seedSet.has(id)) return;
    const candidate = found.get(id) ?? { score: 0, reasons: [] };
    candidate.score += weight;
    candidate.reasons.push([weight, reason]);
    found.set(id, candidate);
  };
  for (const seed of seeds) {
    addDirect(index, seed, add);
    addShared(index, seed, add);
  }
  return [...found]
    .sort(([a, x], [b, y]) => y.score - x.score || degree(index, b) - degree(index, a) || a - b)
    .slice(0, limit)
    .map(([id, { score, reasons }]) => {
      const strongest = reasons.sort((x, y) => y[0] - x[0]).map(([, reason]) => reason);
      return {
        id,
        score: Math.round(score * 1000) / 1000,
        reasons: strongest.slice(0, REASONS),
        moreReasons: Math.max(0, strongest.length - REASONS),
      };
    });
}

type Add = (id: number, weight: number, reason: string) => void;

function titleOf(index: LinkIndex, id: number): string {
  return link(index.pages[id]!.title);
}

/** A direct link weighs at least 1, more with more referencing blocks. */
function addDirect(index: LinkIndex, seed: number, add: Add): void {
  const name = titleOf(index, seed);
  for (const [other, references] of index.outLinks.of(seed))
    add(other, 1 + Math.log2(references), `${name} links to it (${plural(references, 'block')})`);
  for (const [other, references] of index.inLinks.of(seed))
    add(other, 1 + Math.log2(references), `links to ${name} (${plural(references, 'block')})`);
}

/** Each page linked with the seed relates the pages linked with it, once per pair. */
function addShared(index: LinkIndex, seed: number, add: Add): void {
  const name = titleOf(index, seed);
  const vias = new Set<number>([...index.outLinks.neighbors(seed), ...index.inLinks.neighbors(seed)]);
  for (const via of vias) {
    const viaDegree = degree(index, via);
    if (viaDegree > HUB_DEGREE) continue;
    const weight = 1 / Math.log(2 + viaDegree);
    const seedLinksVia = index.outLinks.of(seed).has(via);
    const viaLinksSeed = index.inLinks.of(seed).has(via);
    const viaName = titleOf(index, via);
    const seen = new Set<number>();
    // Pages linking to `via` as the seed does share it as a tag or topic.
    for (const other of index.inLinks.neighbors(via)) {
      seen.add(other);
      add(
        other,
        weight,
        seedLinksVia ? `both link to ${viaName}` : `links to ${viaName}, which links to ${name}`,
      );
    }
    // Pages `via` links to, as it links to the seed, are mentioned together there.
    for (const other of index.outLinks.neighbors(via)) {
      if (seen.has(other)) continue;
      add(
        other,
        weight,
        viaLinksSeed ? `both linked from ${viaName}` : `${name} links to ${viaName}, which links to it`,
      );
    }
  }
}
