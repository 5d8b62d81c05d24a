/**
 * The block fields update_block and each update_blocks item take (as data.block.update names them), and
 * their wire form: Roam's kebab-case keys, only those set (a missing key leaves it unchanged).
 */
import * as z from 'zod';
import { ToolError } from '../../contract/tool-errors.ts';

export const blockFields = {
  string: z.string().optional(),
  open: z.boolean().optional(),
  heading: z.number().int().min(0).max(3).optional(),
  childrenViewType: z.enum(['bullet', 'numbered', 'document']).optional(),
  textAlign: z.enum(['left', 'center', 'right', 'justify']).optional(),
};

export interface BlockFields {
  uid: string;
  string?: string | undefined;
  open?: boolean | undefined;
  heading?: number | undefined;
  childrenViewType?: 'bullet' | 'numbered' | 'document' | undefined;
  textAlign?: 'left' | 'center' | 'right' | 'justify' | undefined;
}

/** `{uid, string?, open?, heading?, "children-view-type"?, "text-align"?}`; INVALID_PARAMS when nothing changes. */
export function blockWire(item: BlockFields, where: string, field = 'string'): Record<string, unknown> {
  const { uid, childrenViewType, textAlign, ...rest } = item;
  const block: Record<string, unknown> = { uid };
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) block[key] = value;
  if (childrenViewType !== undefined) block['children-view-type'] = childrenViewType;
  if (textAlign !== undefined) block['text-align'] = textAlign;
  if (Object.keys(block).length === 1) {
    throw new ToolError(
      'INVALID_PARAMS',
      `${where} (uid '${uid}') changes nothing: give string, open, heading, childrenViewType or textAlign. Nothing was sent.`,
      { field },
    );
  }
  return block;
}
