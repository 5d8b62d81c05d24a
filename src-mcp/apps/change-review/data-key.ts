/** The tool result `_meta` key under which the server hands the app its data (no imports: the app bundles it). */
export const CHANGE_REVIEW_DATA_KEY = 'roam-mcp/change-review';
