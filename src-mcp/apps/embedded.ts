/**
 * What scripts/build.mjs puts into the bin as it is: the change-review app's self-contained HTML
 * (scripts/build-apps.mjs) and skills/roam-companion/SKILL.md, the shipped file (one source
 * text). Only the built bin has them; this module is reached only from the lazily loaded catalogue.
 */
declare const ROAM_MCP_EMBEDDED: { changeReviewHtml: string; skill: string } | undefined;

export function embedded(): { changeReviewHtml: string; skill: string } {
  if (typeof ROAM_MCP_EMBEDDED === 'undefined')
    throw new Error(
      'The app and the skill are embedded by scripts/build.mjs: run the built bin (dist/roam-mcp.mjs).',
    );
  return ROAM_MCP_EMBEDDED;
}
