/**
 * A built link index as bytes, for keeping it between processes (docs/navigation.md, "Kept on
 * disk"): a versioned header (JSON: whose graph, when built, the freshness baseline, the pages),
 * the index's int32 columns, and a SHA-256 of all of it. Decoding answers a doubt instead of an
 * index whenever anything does not match: another format, a checksum, the graph, the byte order.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import { Adjacency } from './adjacency.ts';
import { HiddenBlocks } from '../roam/hidden-blocks.ts';
import type { Check } from './index-freshness.ts';
import type { BuiltIndex } from './index-queries.ts';
import { titleLookups } from './link-index-builder.ts';
import type { LinkIndex, PageNode } from './link-index.ts';

/** Bumped whenever what is written changes meaning: an older file is then dropped, not misread. */
export const INDEX_FORMAT = 2;
const MAGIC = Buffer.from('RCLINDEX');
const DIGEST = 32;
// Format 2 added the attribute links (attr*).
const SECTIONS = [
  'pageEids',
  'outStart',
  'outTargets',
  'outWeights',
  'attrStart',
  'attrTargets',
  'attrWeights',
  'hiddenEids',
  'hiddenPerPage',
] as const;
type Section = (typeof SECTIONS)[number];

export interface GraphIdentity {
  name: string;
  type: string;
}

/** What is kept: the built index and what its freshness check compares against. */
export interface PersistedIndex {
  identity: GraphIdentity;
  /** Our clock when the build finished. */
  builtAt: number;
  /** The eid and uid of the page with the lowest eid: another uid there means another graph. */
  anchor?: { eid: number; uid: string };
  baseline: Check;
  built: BuiltIndex;
}

interface Header {
  identity: GraphIdentity;
  builtAt: number;
  anchor?: { eid: number; uid: string };
  baseline: Check;
  rows: { pages: number; blocks: number };
  totals: LinkIndex['totals'];
  endianness: string;
  pages: { titles: string[]; uids: string[]; daily: string; blockCount: number[]; lastEdit: number[] };
  sections: Record<Section, number>;
}

export function encodeIndex(kept: PersistedIndex): Buffer {
  const { index } = kept.built;
  const out = index.outLinks.columns();
  const attributes = index.attributeLinks.columns();
  const hidden = index.hidden.columns();
  const columns: Record<Section, Int32Array> = {
    pageEids: index.pageEids,
    outStart: out.start,
    outTargets: out.targets,
    outWeights: out.weights,
    attrStart: attributes.start,
    attrTargets: attributes.targets,
    attrWeights: attributes.weights,
    hiddenEids: hidden.eids,
    hiddenPerPage: hidden.perPage,
  };
  const header: Header = {
    identity: kept.identity,
    builtAt: kept.builtAt,
    ...(kept.anchor ? { anchor: kept.anchor } : {}),
    baseline: kept.baseline,
    rows: { pages: kept.built.pages, blocks: kept.built.blocks },
    totals: index.totals,
    endianness: os.endianness(),
    pages: {
      titles: index.pages.map((p) => p.title),
      uids: index.pages.map((p) => p.uid),
      daily: index.pages.map((p) => (p.daily ? '1' : '0')).join(''),
      blockCount: index.pages.map((p) => p.blockCount),
      lastEdit: index.pages.map((p) => p.lastEdit),
    },
    sections: Object.fromEntries(SECTIONS.map((s) => [s, columns[s].length])) as Record<Section, number>,
  };
  const json = Buffer.from(JSON.stringify(header));
  const sectionsAt = 16 + json.length + ((4 - (json.length % 4)) % 4);
  const size = sectionsAt + SECTIONS.reduce((sum, s) => sum + columns[s].byteLength, 0);
  // One buffer for the whole file (a million-block index is ~25 MB): no concatenated copies.
  const bytes = Buffer.alloc(size + DIGEST);
  MAGIC.copy(bytes, 0);
  bytes.writeUInt32LE(INDEX_FORMAT, 8);
  bytes.writeUInt32LE(json.length, 12);
  json.copy(bytes, 16);
  let at = sectionsAt;
  for (const s of SECTIONS) {
    bytes.set(new Uint8Array(columns[s].buffer, columns[s].byteOffset, columns[s].byteLength), at);
    at += columns[s].byteLength;
  }
  createHash('sha256').update(bytes.subarray(0, size)).digest().copy(bytes, size);
  return bytes;
}

export type Decoded = { kept: PersistedIndex } | { doubt: string };

/** The index in `bytes`, if they are a whole, current-format index of `identity`'s graph. */
export function decodeIndex(bytes: Buffer, identity: GraphIdentity): Decoded {
  if (bytes.length < 16 + DIGEST || !bytes.subarray(0, 8).equals(MAGIC))
    return { doubt: 'not an index file' };
  if (bytes.readUInt32LE(8) !== INDEX_FORMAT) return { doubt: `format ${bytes.readUInt32LE(8)}` };
  const body = bytes.subarray(0, bytes.length - DIGEST);
  if (!createHash('sha256').update(body).digest().equals(bytes.subarray(body.length)))
    return { doubt: 'checksum mismatch' };
  const headerEnd = 16 + bytes.readUInt32LE(12);
  const header = JSON.parse(body.toString('utf8', 16, headerEnd)) as Header;
  if (header.identity.name !== identity.name || header.identity.type !== identity.type)
    return { doubt: 'another graph' };
  if (header.endianness !== os.endianness()) return { doubt: 'another byte order' };
  const columns = readSections(body, headerEnd + ((4 - ((headerEnd - 16) % 4)) % 4), header.sections);
  if (!columns || !consistent(columns, header.pages.titles.length))
    return { doubt: 'sections do not add up' };
  return { kept: persisted(header, columns) };
}

function readSections(body: Buffer, at: number, lengths: Record<Section, number>) {
  const columns = {} as Record<Section, Int32Array>;
  for (const section of SECTIONS) {
    const length = lengths[section];
    if (!Number.isInteger(length) || length < 0 || at + length * 4 > body.length) return undefined;
    columns[section] = int32At(body, at, length);
    at += length * 4;
  }
  return at === body.length ? columns : undefined;
}

/** The columns describe `pages` pages and links between them (a bug writing them would show here). */
function consistent(c: Record<Section, Int32Array>, pages: number): boolean {
  if (c.pageEids.length !== pages || c.hiddenPerPage.length % 2 !== 0) return false;
  return (
    links(c.outStart, c.outTargets, c.outWeights, pages) &&
    links(c.attrStart, c.attrTargets, c.attrWeights, pages)
  );
}

function links(start: Int32Array, targets: Int32Array, weights: Int32Array, pages: number): boolean {
  const count = targets.length;
  if (start.length !== pages + 1 || weights.length !== count || start[0] !== 0 || start[pages] !== count)
    return false;
  for (let p = 0; p < pages; p++) if (start[p + 1]! < start[p]!) return false;
  return targets.every((to) => to >= 0 && to < pages);
}

/** A view of the file's bytes where they are aligned (a whole file read is), else a copy. */
function int32At(body: Buffer, at: number, length: number): Int32Array {
  const offset = body.byteOffset + at;
  if (offset % 4 === 0) return new Int32Array(body.buffer, offset, length);
  const column = new Int32Array(length);
  new Uint8Array(column.buffer).set(body.subarray(at, at + length * 4));
  return column;
}

function persisted(header: Header, columns: Record<Section, Int32Array>): PersistedIndex {
  const { titles, uids, daily, blockCount, lastEdit } = header.pages;
  const pages: PageNode[] = titles.map((title, id) => ({
    uid: uids[id]!,
    title,
    daily: daily[id] === '1',
    blockCount: blockCount[id]!,
    lastEdit: lastEdit[id]!,
  }));
  const links = Adjacency.fromColumns(columns.outStart, columns.outTargets, columns.outWeights);
  const index: LinkIndex = {
    pages,
    pageEids: columns.pageEids,
    outLinks: links.out,
    inLinks: links.in,
    attributeLinks: Adjacency.forwardFromColumns(columns.attrStart, columns.attrTargets, columns.attrWeights),
    hidden: HiddenBlocks.restore(columns.hiddenEids, columns.hiddenPerPage),
    ...titleLookups(pages),
    totals: header.totals,
    memo: new Map(),
  };
  return {
    identity: header.identity,
    builtAt: header.builtAt,
    ...(header.anchor ? { anchor: header.anchor } : {}),
    baseline: header.baseline,
    built: { index, ...header.rows },
  };
}
