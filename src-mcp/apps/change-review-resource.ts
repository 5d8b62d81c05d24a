/**
 * The change-review MCP App as a resource (docs/undo.md, "In the chat"): list_changes and
 * undo_changes name it in `_meta.ui.resourceUri`, and a host that renders MCP Apps shows it with
 * their result. Hosts without apps read the same results as text.
 */
import type { FixedResource } from '../contract/tool-definition.ts';
import { changeReviewHtml } from './embedded.ts';

export const CHANGE_REVIEW_URI = 'ui://roam-mcp/change-review.html';

/** `_meta.ui` on the tools that show it. */
export const CHANGE_REVIEW_META = { ui: { resourceUri: CHANGE_REVIEW_URI } };

export const changeReviewResource: FixedResource = {
  uri: CHANGE_REVIEW_URI,
  name: 'change_review',
  title: 'Changes in this chat',
  description: "This chat's changes to Roam, each with Undo after its dry run (an MCP App).",
  // The MCP Apps profile (@modelcontextprotocol/ext-apps RESOURCE_MIME_TYPE).
  mimeType: 'text/html;profile=mcp-app',
  // No domain of any kind: the page loads nothing and connects nowhere (its own CSP says the same).
  _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
  text: changeReviewHtml,
};
