/**
 * Messages between the tray (parent) and the MCP child it spawns for an AI client. The child's
 * stdio belongs to the client (JSON-RPC), so config travels only over this IPC channel — never
 * argv, environment variables or a plaintext file. Travels over Node's `process.send` channel
 * (child_process.fork with 'ipc', src-main/core/mcp-launcher.ts).
 */
import * as z from 'zod';
import { ACCESS_LEVELS, CONFIRM_POLICIES, GRAPH_TYPES, TOKEN_ACCESS_LEVELS } from './roam-config.ts';

const childGraphSchema = z.object({
  name: z.string().min(1),
  type: z.enum(GRAPH_TYPES),
  nickname: z.string().min(1),
  token: z.string().optional(),
  description: z.string().optional(),
  /** The level the user chose in the tray: the child enforces it whatever the token could do. */
  accessLevel: z.enum(ACCESS_LEVELS).optional(),
  /** The level Roam granted the token, when the tray knows it. */
  grantedAccessLevel: z.enum(TOKEN_ACCESS_LEVELS).optional(),
});
export type ChildGraph = z.infer<typeof childGraphSchema>;

/** Parent → child. `config` is the full, current list of enabled graphs; it replaces the previous one. */
export const parentMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('config'),
    graphs: z.array(childGraphSchema),
    /**
     * The client's toolsets as Roam Companion keeps them (docs/mcp.md, Toolsets): when present,
     * they replace the selection the child started with, live (tools/list_changed).
     */
    toolsets: z.array(z.string()).optional(),
    /** Graphs the user switched off (no token): naming one tells the agent how to switch it on. */
    switchedOff: z.array(z.object({ name: z.string().min(1), nickname: z.string().min(1) })).optional(),
    /** The folders the user allowed file_upload to read from (Settings > Upload folders). */
    uploadFolders: z.array(z.string()).optional(),
    /** Paths the child must never upload, whatever the folders: the tray's store folder. */
    protectedPaths: z.array(z.string()).optional(),
    /** Whether destructive writes ask the person first (docs/mcp.md): live, unless `--confirm` was given. */
    confirm: z.enum(CONFIRM_POLICIES).optional(),
  }),
  z.object({ type: z.literal('shutdown') }),
]);
export type ParentMessage = z.infer<typeof parentMessageSchema>;

/** Child → parent. */
export const childMessageSchema = z.discriminatedUnion('type', [
  /** Sent once the child listens for IPC; the parent answers with `config`. */
  z.object({ type: z.literal('ready') }),
  /**
   * A token obtained by exchange: the parent stores it encrypted and re-broadcasts config. A graph
   * the store lacks is added (setup_new_graph), under `nickname` when given.
   */
  z.object({
    type: z.literal('token-obtained'),
    graph: z.object({ name: z.string(), type: z.enum(GRAPH_TYPES), nickname: z.string().min(1).optional() }),
    token: z.string(),
    grantedAccessLevel: z.enum(TOKEN_ACCESS_LEVELS),
  }),
  /** `serve --http` cannot start (a port in use, say): why, in words for the person; it exits next. */
  z.object({ type: z.literal('cannot-serve'), reason: z.string() }),
  /** The child saw Roam reject a token (401): the parent marks it revoked. */
  z.object({
    type: z.literal('token-rejected'),
    graph: z.object({ name: z.string(), type: z.enum(GRAPH_TYPES) }),
  }),
]);
export type ChildMessage = z.infer<typeof childMessageSchema>;

/** Set in the child's environment (not secret) so it waits for config over IPC instead of files. */
export const CHILD_IPC_ENV = 'ROAM_MCP_CONFIG_FROM_PARENT';
