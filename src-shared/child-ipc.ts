/**
 * Messages between the tray (parent) and the MCP child it spawns for an AI client. The child's
 * stdio belongs to the client (JSON-RPC), so config travels only over this IPC channel — never
 * argv, environment variables or a plaintext file. Travels over Node's `process.send` channel
 * (child_process.fork with 'ipc', src-main/core/clients/mcp-launcher.ts).
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
  /** The graph's own "ask before" choice in the tray (wins over the config's `confirm`). */
  confirm: z.enum(CONFIRM_POLICIES).optional(),
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
    /** The launcher's app shows waiting proposals and answers them (`proposal-answer`): the tray, `--mcp`. */
    showsProposals: z.boolean().optional(),
  }),
  z.object({ type: z.literal('shutdown') }),
  /** The person answered a proposal in the app; the child replies `proposal-answered`. */
  z.object({
    type: z.literal('proposal-answer'),
    id: z.string().min(1).max(40),
    answer: z.enum(['approve', 'keep']),
  }),
]);
export type ParentMessage = z.infer<typeof parentMessageSchema>;

/** A block as the person reads it; a replaced one with the text that comes (`newText`). */
const shownBlockSchema = z.object({
  text: z.string(),
  page: z.string().optional(),
  newText: z.string().optional(),
});
/**
 * A waiting proposal as the person reads it (docs/mcp.md, "Consent before a write takes much
 * away"): what goes, in their words. No uid, no hidden text (counted only), no one-time code, no
 * file's address.
 */
export const shownProposalSchema = z.object({
  id: z.string().min(1).max(40),
  question: z.string(),
  graph: z.string(),
  tool: z.string(),
  /** The client that asked, by the name it gave, when it gave one. */
  client: z.string().optional(),
  expiresAt: z.string(),
  taken: z.object({
    blocks: z.array(shownBlockSchema),
    pages: z.array(
      z.object({
        title: z.string(),
        blocks: z.number(),
        hidden: z.number(),
        linkedFrom: z.object({ blocks: z.number(), pages: z.array(z.string()) }),
      }),
    ),
    replaced: z.array(shownBlockSchema),
    moved: z.array(shownBlockSchema),
    /** Blocks a rewrite writes new (update_page_markdown): what comes beside what goes. */
    added: z.array(shownBlockSchema).optional(),
    renames: z.array(
      z.object({ from: z.string(), to: z.string(), links: z.number(), linkPages: z.array(z.string()) }),
    ),
    /** Files removed from Roam's storage, by name (never the address: its query carries a token). */
    files: z.array(
      z.object({ name: z.string(), shownIn: z.object({ blocks: z.number(), pages: z.array(z.string()) }) }),
    ),
    hidden: z.number(),
    changes: z.number().optional(),
    unknown: z.string().optional(),
  }),
});
export type ShownProposalMessage = z.infer<typeof shownProposalSchema>;

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
  /** A write waits for the person (only after `showsProposals`): the app shows it. */
  z.object({ type: z.literal('proposal'), proposal: shownProposalSchema }),
  /** It no longer waits (answered anywhere, expired, withdrawn): the app stops showing it. */
  z.object({ type: z.literal('proposal-closed'), id: z.string() }),
  /** What became of the app's answer: `done` false when another answer came first. */
  z.object({ type: z.literal('proposal-answered'), id: z.string(), done: z.boolean(), outcome: z.string() }),
]);
export type ChildMessage = z.infer<typeof childMessageSchema>;

/** Set in the child's environment (not secret) so it waits for config over IPC instead of files. */
export const CHILD_IPC_ENV = 'ROAM_MCP_CONFIG_FROM_PARENT';
