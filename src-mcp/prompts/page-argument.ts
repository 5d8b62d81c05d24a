/**
 * The `page` argument prompts share: what the user typed (a title in any case, or a uid) resolved
 * through the link index, so "/backlinks apollo" finds [[Apollo]] and a miss names the closest
 * titles, as the navigation tools' NOT_FOUND does.
 */
import * as z from 'zod';
import { loadLinkIndex } from '../navigation/index-cache.ts';
import type { LinkIndex } from '../navigation/link-index.ts';
import { findPage, pageNotFound } from '../navigation/page-lookup.ts';
import type { ToolContext } from '../contract/tool-definition.ts';

export const pageArgument = z.string().trim().min(1).describe('Page title or uid');

export interface ResolvedPage {
  index: LinkIndex;
  id: number;
  uid: string;
  title: string;
}

export async function resolvePage(roam: ToolContext, name: string): Promise<ResolvedPage> {
  const index = await loadLinkIndex(roam);
  const id = findPage(index, name);
  if (id === undefined) throw pageNotFound(index, name, roam.graph.nickname);
  const { uid, title } = index.pages[id]!;
  return { index, id, uid, title };
}
