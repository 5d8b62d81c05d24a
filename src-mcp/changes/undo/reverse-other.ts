/**
 * Taking back shortcut changes, uploads and file deletes. Shortcuts go back to where they were,
 * unless someone changed that page's shortcut since. An upload is deleted unless a block someone
 * else wrote embeds it. A deleted file is uploaded again from the bytes kept (Roam gives it a new
 * URL: blocks that embedded the old one still point there, and are named).
 */
import { plural, quote } from '../journal/summary.ts';
import { perform, uploadedUrl } from './reversing-write.ts';
import type { Op } from '../journal/types.ts';
import { conflict, notUndoable, type Reversal, type StepContext } from './undo-step.ts';

/** Files larger than this are not kept (their delete cannot be taken back). */
export const MAX_KEPT_FILE_BYTES = 10 * 1024 * 1024;

export async function reverseShortcut(
  op: Extract<Op, { kind: 'shortcut' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const page = await ctx.view.node(op.page);
  if (!page?.title) return conflict('the page was deleted since');
  const title = page.title;
  const now = await ctx.view.starred();
  const was = op.before?.indexOf(title) ?? -1;
  const isNow = now.indexOf(title);
  if (op.add && isNow < 0) return conflict('someone removed it from the shortcuts since');
  if (!op.add && isNow >= 0) return conflict('someone added it to the shortcuts again since');
  if (!op.add && was < 0) return { status: 'undone', detail: 'it was not a shortcut before: nothing to do' };
  await perform(ctx, {
    kind: 'shortcut',
    page: op.page,
    title,
    add: was >= 0,
    ...(was >= 0 ? { index: was } : {}),
    before: now,
  });
  return {
    status: 'undone',
    detail:
      was < 0
        ? `removed ${quote(title)} from the shortcuts`
        : `put ${quote(title)} back at shortcut ${was + 1}`,
  };
}

/** Blocks whose text contains `url`. */
async function embedders(ctx: StepContext, url: string): Promise<string[]> {
  const query = '[:find ?s :in $ ?url :where [?b :block/string ?s] [(clojure.string/includes? ?s ?url)]]';
  const rows = await ctx.view.read('data.q', [query, url]);
  return Array.isArray(rows) ? rows.map((row) => String(Array.isArray(row) ? row[0] : row)) : [];
}

export async function reverseUpload(
  op: Extract<Op, { kind: 'upload' }>,
  ctx: StepContext,
): Promise<Reversal> {
  if (!op.url) return notUndoable('Roam did not say where it stored the file');
  const used = await embedders(ctx, op.url);
  if (used.length > 0)
    return conflict(`embedded in ${plural(used.length, 'block')} now, e.g. ${quote(used[0])}`);
  const file = (await ctx.view.read('file.get', [{ url: op.url, format: 'base64' }]).catch(() => null)) as {
    base64?: unknown;
    mimetype?: unknown;
    filename?: unknown;
  } | null;
  const base64 = typeof file?.base64 === 'string' ? file.base64 : undefined;
  const bytes = base64 ? Buffer.byteLength(base64, 'base64') : op.bytes;
  const kept = base64 && bytes <= MAX_KEPT_FILE_BYTES && !ctx.dry ? await ctx.files.keep(base64) : undefined;
  await perform(ctx, {
    kind: 'delete-file',
    url: op.url,
    ...(kept
      ? {
          kept: {
            file: kept,
            mimetype: op.mimetype ?? String(file?.mimetype ?? 'application/octet-stream'),
            bytes,
            ...(op.filename ? { filename: op.filename } : {}),
          },
        }
      : {}),
  });
  return {
    status: 'undone',
    detail: `deleted the uploaded file ${op.filename ? quote(op.filename) : ''}`.trim(),
  };
}

export async function reverseDeleteFile(
  op: Extract<Op, { kind: 'delete-file' }>,
  ctx: StepContext,
): Promise<Reversal> {
  if (!op.kept) return notUndoable(op.notKept ?? 'its bytes were not kept');
  const base64 = await ctx.files.read(op.kept.file);
  if (base64 === undefined) return notUndoable('its kept bytes are gone (the journal keeps them 30 days)');
  const { mimetype, filename, bytes } = op.kept;
  const stale = await embedders(ctx, op.url);
  const answer = await perform(ctx, {
    kind: 'upload',
    base64,
    bytes,
    mimetype,
    ...(filename ? { filename } : {}),
  });
  const url = ctx.dry ? '' : (uploadedUrl(answer) ?? '');
  const still = stale.length
    ? `; ${plural(stale.length, 'block')} still ${stale.length === 1 ? 'embeds' : 'embed'} the old URL`
    : '';
  return { status: 'undone', detail: `uploaded it again${url ? ` as ${url}` : ''}${still}` };
}
