/**
 * What the approval tests share (the tray's panel, the --mcp launcher's box, the tray's HTTP
 * server): pages big enough that deleting one is asked, each with a block hidden from AI, reached
 * by uid; a result's text; a file the person uploaded and shows on a page.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ActionRunner, BlockSpec, PageSpec } from '../emulator/index.ts';

/** A nine-character uid: `prefix`, then `i` padded with zeros. */
export const uidOf = (prefix: string, i: number) => `${prefix}${String(i).padStart(9 - prefix.length, '0')}`;
export const pageUid = (name: string) => uidOf(`pg${name.slice(0, 2).toLowerCase()}`, 0);

/** A page per name: 12 lines (more than a delete may take unasked), then `secret` hidden from AI. */
export function askedPages(names: readonly string[], secret: string, more: BlockSpec[] = []): PageSpec[] {
  return names.map((name) => ({
    title: `${name} page`,
    uid: pageUid(name),
    children: [
      ...Array.from({ length: 12 }, (_, i) => ({
        string: `${name} line ${i}`,
        uid: uidOf(name.slice(0, 3).toLowerCase(), i + 1),
      })),
      { string: `${secret} #.rm-hide`, children: [`${secret} below`] },
      ...more.map((block) => (typeof block === 'string' ? `${name} ${block}` : block)),
    ],
  }));
}

export const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

export const blockExists = (graph: ActionRunner, uid: string) =>
  graph.run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;

export const deletePage = (client: Client, name: string) =>
  client.callTool({ name: 'delete_page', arguments: { uid: pageUid(name) } }) as Promise<CallToolResult>;

/** The proposal a held write's result names. */
export const proposalId = (result: CallToolResult) => /\(proposal (p-[a-z0-9]+)\)/.exec(textOf(result))![1]!;

/** A PDF the person uploads in Roam: its URL, the address and Roam's token query in it, and its file name. */
export function uploadPdf(
  graph: ActionRunner,
  text: string,
): { fileUrl: string; address: string; query: string; name: string } {
  const wrapped = graph.run('file.upload', [
    { base64: Buffer.from(`%PDF-1.4 ${text}`).toString('base64'), mimetype: 'application/pdf' },
  ]) as string;
  const fileUrl = wrapped.slice(4, -1);
  const [address, query] = fileUrl.split('?') as [string, string];
  return { fileUrl, address, query, name: decodeURIComponent(address).split('/').pop()! };
}

/** Whether Roam still stores the file at `fileUrl`. */
export function fileStored(graph: ActionRunner, fileUrl: string): boolean {
  try {
    graph.run('file.get', [{ url: fileUrl }]);
    return true;
  } catch {
    return false;
  }
}
