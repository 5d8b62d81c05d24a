/** One graph as the tray's store keeps it (tray-store.ts reads and writes the file). */
import * as z from 'zod';
import {
  ACCESS_LEVELS,
  CONFIRM_POLICIES,
  GRAPH_TYPES,
  TOKEN_ACCESS_LEVELS,
} from '../../../src-shared/roam-config.ts';

export const storedTokenSchema = z.object({
  /** SecretBox ciphertext, base64. */
  cipher: z.string(),
  last4: z.string(),
  revoked: z.boolean().optional(),
});

export const storedGraphSchema = z.object({
  name: z.string().min(1),
  type: z.enum(GRAPH_TYPES),
  nickname: z.string().optional(),
  description: z.string().optional(),
  accessLevel: z.enum(ACCESS_LEVELS),
  /** What Roam granted the stored token: the MCP child enforces the narrower of the two. */
  grantedAccessLevel: z.enum(TOKEN_ACCESS_LEVELS).optional(),
  disabled: z.boolean().optional(),
  token: storedTokenSchema.optional(),
  /** The graph's own "ask before" choice (Edit); without one it follows Settings' `confirm`. */
  confirm: z.enum(CONFIRM_POLICIES).optional(),
});
export type StoredGraph = z.infer<typeof storedGraphSchema>;
