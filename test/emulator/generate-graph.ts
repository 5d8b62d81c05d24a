/**
 * Deterministic, realistic synthetic graphs for tests and benchmarks: topic and daily pages,
 * nested blocks, `[[links]]` and `#tags` whose targets follow a power law (a few hubs, a long
 * tail), attributes and block references. Same `{blocks, seed}` → same graph, uid for uid.
 */
import { dateToPageTitle } from './roam-dates.ts';
import { SeededRandom } from './seeded-random.ts';
import type { BlockSpec, PageSpec } from './types.ts';

const ADJECTIVES = [
  'Quiet',
  'Open',
  'Rapid',
  'Hidden',
  'Shared',
  'Living',
  'Deep',
  'Simple',
  'Modular',
  'Distributed',
  'Personal',
  'Public',
  'Weekly',
  'Annual',
  'Remote',
  'Local',
  'Visual',
  'Formal',
  'Applied',
  'Early',
];
const NOUNS = [
  'Research',
  'Garden',
  'Pipeline',
  'Roadmap',
  'Archive',
  'Protocol',
  'Interview',
  'Budget',
  'Design',
  'Experiment',
  'Workshop',
  'Reading',
  'Strategy',
  'Launch',
  'Review',
  'Metrics',
  'Hiring',
  'Writing',
  'Migration',
  'Onboarding',
  'Retrospective',
  'Prototype',
  'Campaign',
  'Partnership',
  'Framework',
];
const TAGS = [
  'idea',
  'todo',
  'question',
  'important',
  'reading',
  'meeting',
  'followup',
  'draft',
  'decision',
  'risk',
];
const ATTRIBUTES = ['status', 'owner', 'type', 'source', 'priority'];
const WORDS = (
  'the a of to and in for on with about from into over under between notes plan review draft idea result ' +
  'team user data model graph link page block index query search write read ship test measure learn design ' +
  'week month goal risk cost time scope detail summary question answer change issue fix update follow next'
).split(' ');

/** Picks ranks 0..n-1 with probability ∝ 1/(rank+1)^exponent (Zipf). */
class ZipfPicker {
  private readonly cumulative: number[] = [];

  constructor(n: number, exponent = 1.1) {
    let sum = 0;
    for (let rank = 0; rank < n; rank++) this.cumulative.push((sum += 1 / Math.pow(rank + 1, exponent)));
  }

  pick(random: SeededRandom): number {
    const total = this.cumulative[this.cumulative.length - 1] ?? 0;
    const target = random.next() * total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

interface MutableBlock {
  string: string;
  uid: string;
  children: MutableBlock[];
}

/** A synthetic graph of exactly `blocks` blocks (100 to 100,000 is the useful range). */
export function generateGraph({ blocks, seed = 1 }: { blocks: number; seed?: number }): PageSpec[] {
  if (!Number.isInteger(blocks) || blocks < 1) {
    throw new Error(`generateGraph: "blocks" must be a positive integer, got ${blocks}.`);
  }
  const random = new SeededRandom(seed);
  const topicCount = Math.max(5, Math.round(blocks / 25));
  const dailyCount = Math.max(3, Math.round(blocks / 60));

  const titles: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; titles.length < topicCount; i++) {
    const base = `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
    const title = seen.has(base) ? `${base} ${Math.floor(i / 10) + 2}` : base;
    if (seen.has(title)) continue;
    seen.add(title);
    titles.push(title);
  }
  const start = Date.UTC(2026, 10, 22);
  const dailyTitles = Array.from({ length: dailyCount }, (_, i) =>
    dateToPageTitle(new Date(start - i * 86_400_000)),
  );

  const pages: PageSpec[] = [
    ...titles.map((title) => ({ title, uid: random.uid(), children: [] as BlockSpec[] })),
    ...dailyTitles.map((title) => ({ title, daily: true, children: [] as BlockSpec[] })),
  ];
  const linkTargets = new ZipfPicker(titles.length);
  const tagPicker = new ZipfPicker(TAGS.length, 1.3);
  const pagePicker = new ZipfPicker(pages.length, 0.6);
  const written: string[] = [];

  const sentence = (): string => {
    const parts: string[] = [];
    const length = 4 + random.int(9);
    for (let i = 0; i < length; i++) parts.push(random.pick(WORDS));
    const links = random.int(4);
    for (let i = 0; i < links; i++) {
      parts.splice(random.int(parts.length + 1), 0, `[[${titles[linkTargets.pick(random)]}]]`);
    }
    if (random.next() < 0.25) parts.push(`#${TAGS[tagPicker.pick(random)]}`);
    if (written.length > 0 && random.next() < 0.05) parts.push(`((${written[random.int(written.length)]}))`);
    let text = parts.join(' ');
    if (random.next() < 0.08) text = `${random.pick(ATTRIBUTES)}:: ${text}`;
    return text;
  };

  // Each page grows an outline: a new block is a sibling or a child of the last one (depth ≤ 4).
  const stacks = new Map<PageSpec, MutableBlock[]>();
  for (let i = 0; i < blocks; i++) {
    const page = pages[pagePicker.pick(random)] as PageSpec;
    const stack = stacks.get(page) ?? [];
    stacks.set(page, stack);
    const block: MutableBlock = { string: sentence(), uid: random.uid(), children: [] };
    written.push(block.uid);
    const roll = random.next();
    if (stack.length > 0 && stack.length < 4 && roll < 0.35) {
      (stack[stack.length - 1] as MutableBlock).children.push(block);
      stack.push(block);
    } else {
      // Back out to a shallower level: keep `keep` ancestors (0 = a new top-level block).
      const keep = stack.length === 0 || roll < 0.7 ? 0 : random.int(stack.length);
      stack.length = keep;
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(block);
      else (page.children as BlockSpec[]).push(block);
      stack.push(block);
    }
  }
  return pages;
}
