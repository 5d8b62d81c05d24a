/**
 * What Roam says beside a page's or block's markdown on newer builds:
 * `linkedReferences` `{total, shown, results, note?}`, the first few references. Rendered after
 * the markdown, never spliced into it; absent on older builds and when there are none.
 */
import { LIMITS, truncate } from '../contract/limits.ts';

/** A breadcrumb as Roam sends it: a string array at runtime (older docs: one "A > B" string). */
export function pathText(path: unknown): string {
  if (typeof path === 'string') return path;
  if (Array.isArray(path)) return path.filter((p) => typeof p === 'string').join(' > ');
  return '';
}

interface Preview {
  total?: unknown;
  shown?: unknown;
  results?: unknown;
  note?: unknown;
}

/** The section appended to get_page / get_block text, or '' when Roam sent none or there are none. */
export function linkedReferencesText(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const preview = value as Preview;
  const results = Array.isArray(preview.results)
    ? (preview.results as Array<{ markdown?: unknown; path?: unknown }>)
    : [];
  const total = typeof preview.total === 'number' ? preview.total : results.length;
  if (total === 0) return '';
  const shown = typeof preview.shown === 'number' ? preview.shown : results.length;
  const more = total > shown ? '; get_backlinks lists them all' : '';
  const note =
    typeof preview.note === 'string' && preview.note ? ` ${truncate(preview.note, LIMITS.context)}` : '';
  const items = results.map((r) => {
    const path = pathText(r.path);
    const markdown = truncate(String(r.markdown ?? ''), LIMITS.listItem);
    return path ? `In ${truncate(path, LIMITS.context)}:\n${markdown}` : markdown;
  });
  return `\n\nLinked references (${shown} of ${total}${more}):${note}\n${items.join('\n')}`;
}
