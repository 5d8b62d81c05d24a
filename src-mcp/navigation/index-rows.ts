/** The rows the index queries answer (index-queries.ts), as the link index reads them. */
/** `[eid, title, uid, :edit/time or 0, :log/id or 0]` for every page. */
export type PageRow = [number, string, string, number, number];
/** `[blockEid, pageEid of the block, referenced pageEid]` for every block → page reference. */
export type ReferenceRow = [number, number, number];
/** `[blockEid, pageEid]` of every block hidden from AI (src-mcp/roam/hidden-blocks.ts). */
export type HiddenRow = [number, number];
