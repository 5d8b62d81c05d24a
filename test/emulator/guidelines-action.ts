/**
 * `data.ai.getGraphGuidelines`: current builds answer an object
 * (the guidelines page's text, the left-sidebar shortcuts, today's daily note title, display
 * names, and the extension tools when any are registered); older builds (GraphSpec.olderShapes) answer the page's markdown or null.
 */
import { pageMarkdown } from './ai-markdown.ts';
import { listedExtensionTools } from './extension-actions.ts';
import { dateToPageTitle } from './roam-dates.ts';
import type { RoamGraph } from './roam-graph.ts';

/** The page the official docs name (`[[roam/agent guidelines]]`). */
export const GUIDELINES_TITLE = 'roam/agent guidelines';

function guidelinesText(graph: RoamGraph): string | null {
  const eid = graph.eidByTitle(GUIDELINES_TITLE);
  return eid === undefined ? null : pageMarkdown(graph, eid);
}

/** Titles of the pages in the left sidebar's Shortcuts, in order (pages deleted since drop out). */
export function starredPages(graph: RoamGraph): string[] {
  return graph.shortcuts.flatMap((uid) => {
    const eid = graph.eidByUid(uid);
    const title = eid === undefined ? undefined : graph.attr<string>(eid, ':node/title');
    return title === undefined ? [] : [title];
  });
}

/** Today on this machine, as Roam titles daily notes ("November 23rd, 2026"). */
function todaysTitle(): string {
  const now = new Date();
  return dateToPageTitle(new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())));
}

export function getGraphGuidelines(graph: RoamGraph): unknown {
  const { human, ai } = graph.displayNames;
  const extensionTools = listedExtensionTools(graph);
  return {
    queriedAt: new Date().toISOString(),
    guidelines: guidelinesText(graph),
    starredPages: starredPages(graph),
    todaysDailyNotePage: todaysTitle(),
    ...(ai !== undefined ? { aiUserDisplayName: ai } : {}),
    ...(human !== undefined ? { humanUserDisplayName: human } : {}),
    ...(extensionTools.length ? { extensionTools } : {}),
  };
}

export function getGraphGuidelinesOlder(graph: RoamGraph): unknown {
  return guidelinesText(graph);
}
