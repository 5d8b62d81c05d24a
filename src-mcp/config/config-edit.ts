/**
 * Edits of the config document for `roam-mcp connect`: add or update a graph, remove, disable,
 * enable. They work on the raw JSON so unknown fields and other entries survive untouched.
 */
import { graphId } from '../../src-shared/constants.ts';
import { readRegularFile } from '../../src-shared/node/read-regular-file.ts';
import {
  configFileSchema,
  entryGraphId,
  findGraph,
  validateGraphs,
  type GraphEntry,
} from '../../src-shared/roam-config.ts';
import { parseConfigText } from './config-file.ts';
import { editConfigFile } from './config-write.ts';

export interface ConfigDocument {
  version?: number;
  graphs: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Reads the document to edit; a missing file is an empty config, a broken one an error. */
export async function readConfigDocument(file: string): Promise<ConfigDocument> {
  const text = await readRegularFile(file);
  if (text === undefined) return { version: 1, graphs: [] };
  return documentOf(text, file);
}

function documentOf(text: string, file: string): ConfigDocument {
  // Only a broken file blocks editing: a nickname clash or a bad token is what the user may be fixing.
  const json = safeJson(text);
  if (json === undefined || !configFileSchema.safeParse(json).success) {
    throw new Error(parseConfigText(text, file).errors.join(' '));
  }
  return json as ConfigDocument;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads, edits and writes the document under the config lock, so `connect` never drops a token
 * a server stored meanwhile (and keeps the file's mode). `edit` throws to write nothing.
 */
export async function editConfigDocument(
  file: string,
  edit: (doc: ConfigDocument) => ConfigDocument,
): Promise<void> {
  await editConfigFile(file, (raw) => {
    const doc = documentOf(JSON.stringify(raw), file);
    return { doc: edit(doc), result: undefined };
  });
}

function entries(doc: ConfigDocument): Array<GraphEntry & Record<string, unknown>> {
  return doc.graphs.map((g) => ({ type: 'hosted', ...g }) as GraphEntry & Record<string, unknown>);
}

/** Index of the entry a nickname or name refers to (disabled entries included). */
export function findEntryIndex(doc: ConfigDocument, ref: string): number {
  const all = entries(doc).map((g, index) => ({ name: g.name, nickname: g.nickname ?? g.name, index }));
  return findGraph(all, ref)?.index ?? -1;
}

/**
 * Adds the graph, or updates the entry with the same name and type. Throws with the clash when
 * the nickname is already taken by another graph.
 */
export function upsertGraph(
  doc: ConfigDocument,
  graph: Pick<GraphEntry, 'name' | 'type' | 'nickname' | 'description' | 'accessLevel' | 'token'>,
): ConfigDocument {
  const graphs = doc.graphs.map((g) => ({ ...g }));
  const at = graphs.findIndex((g) => entryGraphId(g) === graphId(graph));
  const entry: Record<string, unknown> =
    at >= 0 ? (graphs[at] as Record<string, unknown>) : { name: graph.name, type: graph.type };
  for (const key of ['nickname', 'description', 'accessLevel', 'token'] as const) {
    if (graph[key] !== undefined) entry[key] = graph[key];
  }
  delete entry.disabled;
  if (at >= 0) graphs[at] = entry;
  else graphs.push(entry);
  const next = { ...doc, version: doc.version ?? 1, graphs };
  const clash = validateGraphs(entries(next)).errors.find((e) => /clashes/.test(e));
  if (clash) throw new Error(clash);
  return next;
}

export function removeGraph(doc: ConfigDocument, ref: string): ConfigDocument {
  const at = findEntryIndex(doc, ref);
  if (at < 0) throw new Error(notConfigured(doc, ref));
  return { ...doc, graphs: doc.graphs.filter((_, i) => i !== at) };
}

export function setDisabled(doc: ConfigDocument, ref: string, disabled: boolean): ConfigDocument {
  const at = findEntryIndex(doc, ref);
  if (at < 0) throw new Error(notConfigured(doc, ref));
  const graphs = doc.graphs.map((g, i) => {
    if (i !== at) return g;
    const copy = { ...g };
    if (disabled) copy.disabled = true;
    else delete copy.disabled;
    return copy;
  });
  return { ...doc, graphs };
}

function notConfigured(doc: ConfigDocument, ref: string): string {
  const names = entries(doc).map((g) => g.nickname ?? g.name);
  return `No configured graph is called '${ref}'. Configured: ${names.length ? names.join(', ') : 'none'}.`;
}
