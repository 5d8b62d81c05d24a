/**
 * What scripts/build.mjs ships with the bin: the agent skill, skills/roam-companion/SKILL.md
 * itself (one source text), inside the code; the change-review app's self-contained HTML
 * (scripts/build-apps.mjs) as a file beside the chunks, read when a host asks for it: inside the
 * code, its 430 KB cost every server 6.5 MB of RSS at rest, app or no app. Only the built bin has
 * them; this module is reached only from the lazily loaded catalogue.
 */
import { readFileSync } from 'node:fs';

declare const ROAM_MCP_EMBEDDED: { skill: string } | undefined;

/** The file's name, beside the bin's chunks (scripts/build.mjs writes it there). */
export const CHANGE_REVIEW_FILE = 'change-review.html';

const NOT_BUILT = 'The app and the skill ship with the built bin (scripts/build.mjs): run dist/roam-mcp.mjs.';

export function embeddedSkill(): string {
  if (typeof ROAM_MCP_EMBEDDED === 'undefined') throw new Error(NOT_BUILT);
  return ROAM_MCP_EMBEDDED.skill;
}

export function changeReviewHtml(): string {
  if (typeof ROAM_MCP_EMBEDDED === 'undefined') throw new Error(NOT_BUILT);
  const file = new URL(CHANGE_REVIEW_FILE, import.meta.url);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `The change-review app's page is missing beside the bin (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}: ${file.pathname}). Reinstall roam-companion (npm) or rebuild (node scripts/build.mjs mcp).`,
      { cause: error },
    );
  }
}
