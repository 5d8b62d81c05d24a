/**
 * `file.get`, `file.upload`, `file.delete`: Roam takes base64 in and
 * answers an upload with a Firebase storage URL wrapped as markdown, `![](url)`. Files live in
 * memory per graph.
 */
import { randomUUID } from 'node:crypto';
import type { RoamGraph } from './roam-graph.ts';
import { generateUid } from './roam-uid.ts';

type Handler = (graph: RoamGraph, args: unknown[]) => unknown;

export interface StoredFile {
  base64: string;
  mimetype: string;
  filename?: string;
}

function input(args: unknown[], action: string, example: string): Record<string, unknown> {
  const first = args[0];
  if (!first || typeof first !== 'object') throw new Error(`${action}: pass ${example}.`);
  return first as Record<string, unknown>;
}

function stored(graph: RoamGraph, url: unknown, action: string): StoredFile {
  const file = typeof url === 'string' ? graph.files.get(url) : undefined;
  if (!file) throw new Error(`${action}: no file at ${JSON.stringify(url)} in graph '${graph.name}'.`);
  return file;
}

const extension = (mimetype: string) => /\/([a-z0-9]+)/i.exec(mimetype)?.[1] ?? 'bin';

export const FILE_ACTIONS: Record<string, Handler> = {
  'file.upload': (graph, args) => {
    const what = 'file.upload';
    const { base64, mimetype, filename } = input(args, what, '{"base64": "...", "mimetype": "image/png"}');
    if (typeof base64 !== 'string' || base64 === '') throw new Error(`${what}: "base64" is required.`);
    if (typeof mimetype !== 'string' || mimetype === '') throw new Error(`${what}: "mimetype" is required.`);
    const url = `https://firebasestorage.googleapis.com/v0/b/firescript-577a2.appspot.com/o/imgs%2Fapp%2F${encodeURIComponent(graph.name)}%2F${generateUid()}.${extension(mimetype)}?alt=media&token=${randomUUID()}`;
    graph.files.set(url, { base64, mimetype, ...(typeof filename === 'string' ? { filename } : {}) });
    return `![](${url})`;
  },
  'file.get': (graph, args) => {
    const { url } = input(args, 'file.get', '{"url": "...", "format": "base64"}');
    return { ...stored(graph, url, 'file.get') };
  },
  'file.delete': (graph, args) => {
    const { url } = input(args, 'file.delete', '{"url": "..."}');
    stored(graph, url, 'file.delete');
    graph.files.delete(url as string);
    return null;
  },
};
