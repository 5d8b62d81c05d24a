/**
 * The graph config file shared with Roam's official MCP server and its `connect` CLI
 * (`~/.roam-tools.json`, legacy `~/.roam-mcp.json`), and the validation rules that the
 * MCP server and the tray app must apply identically (docs/mcp.md, Configuration).
 */
import * as z from 'zod';
import {
  ACCESS_LEVELS,
  GRAPH_TYPES,
  TOKEN_ACCESS_LEVELS,
  WHEN_NOBODY_CAN_ASK,
  type AccessLevel,
  type GraphType,
  type TokenAccessLevel,
  type WhenNobodyCanAsk,
  DEFAULT_GRAPH_TYPE,
  graphId,
} from './constants.ts';
import { labelKey, nicknameProblem, printableLabel } from './graph-identity.ts';

export {
  ACCESS_LEVELS,
  GRAPH_TYPES,
  TOKEN_ACCESS_LEVELS,
  WHEN_NOBODY_CAN_ASK,
  type AccessLevel,
  type GraphType,
  type TokenAccessLevel,
  type WhenNobodyCanAsk,
};
/** What we ask Roam for when nobody chose: the safer read + append, everywhere (connect, server, tray). */
export const DEFAULT_ACCESS_LEVEL: AccessLevel = 'read-append';

export const LOCAL_TOKEN_PREFIX = 'roam-graph-local-token-';
export const REMOTE_TOKEN_PREFIX = 'roam-graph-token-';

/**
 * When roam-mcp asks the person before a write (docs/mcp.md, "Consent before a write takes much
 * away"): `destructive` (the default: a write that takes much away), `every-write` (every write:
 * the agent drafts, the person approves) or `never`. Set at the file's top level and per graph (a
 * graph's own wins); `--confirm` wins over the file's top level.
 */
export const CONFIRM_POLICIES = ['never', 'destructive', 'every-write'] as const;
export type ConfirmPolicy = (typeof CONFIRM_POLICIES)[number];

export const graphEntrySchema = z
  .object({
    name: z.string().trim().min(1, 'name must be a non-empty string'),
    type: z.enum(GRAPH_TYPES).default(DEFAULT_GRAPH_TYPE),
    token: z.string().optional(),
    nickname: z.string().trim().min(1, 'nickname must not be empty').optional(),
    description: z.string().optional(),
    /** The level the user chose: roam-mcp enforces it whatever the token could do. */
    accessLevel: z.enum(ACCESS_LEVELS).optional(),
    /** Our addition: the level Roam granted the token, when known (the tray's store keeps it). */
    grantedAccessLevel: z.enum(TOKEN_ACCESS_LEVELS).optional(),
    /** Our addition: a graph kept in the file but not offered to agents. */
    disabled: z.boolean().optional(),
    /**
     * Our addition: a write that takes much away, from a client that can neither ask the person
     * nor show an approval: `proceed` (the default; the undo is there) or `refuse`.
     */
    whenNobodyCanAsk: z.enum(WHEN_NOBODY_CAN_ASK).optional(),
    /** Our addition: when the person is asked before a write to this graph (wins over the top level). */
    confirm: z.enum(CONFIRM_POLICIES).optional(),
  })
  .loose();
export type GraphEntry = z.infer<typeof graphEntrySchema>;

/** The identity (`graphId`) of an entry as written in the file, read by the schema; undefined when it names no graph. */
export function entryGraphId(entry: unknown): string | undefined {
  const read = graphEntrySchema.pick({ name: true, type: true }).safeParse(entry);
  return read.success ? graphId(read.data) : undefined;
}

export const configFileSchema = z
  .object({
    version: z.literal(1).optional(),
    graphs: z.array(graphEntrySchema),
    /** Checked by the server with a warning, not here: a wrong value must not lose the graphs. */
    confirm: z.unknown().optional(),
  })
  .loose();
export type ConfigFile = z.infer<typeof configFileSchema>;

/** A graph after validation: nickname filled in, ready to be offered to agents. */
export interface ConfiguredGraph {
  name: string;
  type: GraphType;
  nickname: string;
  token?: string;
  description?: string;
  /** The level the user chose (enforced by roam-mcp). */
  accessLevel?: AccessLevel;
  /** The level Roam granted the token, when the config knows it. */
  grantedAccessLevel?: TokenAccessLevel;
  /** `refuse`: a write that takes much away is refused when nobody can be asked (else it goes ahead). */
  whenNobodyCanAsk?: WhenNobodyCanAsk;
  /** When the person is asked before a write to it, when the graph says (else the server's policy). */
  confirm?: ConfirmPolicy;
}

/** A graph the user switched off: agents are told so, and how to switch it on. */
export interface SwitchedOffGraph {
  name: string;
  nickname: string;
}

export interface GraphValidation {
  graphs: ConfiguredGraph[];
  /** The disabled graphs, so that naming one gets "switched off" rather than "not found". */
  switchedOff: SwitchedOffGraph[];
  /** Problems that make the config unusable: each says what is wrong and how to fix it. */
  errors: string[];
  /** Problems we worked around (e.g. an offline graph shadowed by a hosted one). */
  warnings: string[];
}

/** Explains what is wrong with a token without ever repeating the token. */
export function describeTokenProblem(token: string, graphLabel: string): string | undefined {
  if (token.startsWith(LOCAL_TOKEN_PREFIX) && token.length > LOCAL_TOKEN_PREFIX.length) return undefined;
  if (token.startsWith(REMOTE_TOKEN_PREFIX)) {
    return (
      `Graph '${graphLabel}': the token is a remote API token (it starts with '${REMOTE_TOKEN_PREFIX}'). ` +
      `The Local API needs a local token starting with '${LOCAL_TOKEN_PREFIX}'. ` +
      `Create one in Roam Desktop: Settings > Graph > Local API Tokens, or run 'roam-mcp connect'.`
    );
  }
  return (
    `Graph '${graphLabel}': the token is not a Roam Local API token (it must start with '${LOCAL_TOKEN_PREFIX}'). ` +
    `Create one in Roam Desktop: Settings > Graph > Local API Tokens, or run 'roam-mcp connect'.`
  );
}

/**
 * The token with surrounding whitespace trimmed (a trailing newline, the `\r` of a CRLF env file;
 * a warning), or undefined with an error when it is not a usable local token. Never repeats it.
 */
function checkToken(
  raw: string,
  graphLabel: string,
  errors: string[],
  warnings: string[],
): string | undefined {
  const token = raw.trim();
  if (token !== raw) {
    warnings.push(`Graph '${graphLabel}': the token had spaces or line breaks around it; they were ignored.`);
  }
  const problem = /\s/.test(token)
    ? `Graph '${graphLabel}': the token contains a space or line break inside it, so it cannot be sent to Roam. ` +
      `Copy the token again from Roam Desktop (Settings > Graph > Local API Tokens), or run 'roam-mcp connect'.`
    : describeTokenProblem(token, graphLabel);
  if (!problem) return token;
  errors.push(problem);
  return undefined;
}

/**
 * Applies the config rules (docs/mcp.md): hosted wins over an offline graph of the same name (warning); each
 * nickname is acceptable (graph-identity.ts); nicknames and names (a graph without nickname goes
 * by its name) are unique across graphs as labels (error naming both graphs); tokens must be
 * local tokens (error without the token). Disabled graphs are left out.
 */
export function validateGraphs(entries: readonly GraphEntry[]): GraphValidation {
  const errors: string[] = [];
  const warnings: string[] = [];
  const enabled = entries.filter((g) => !g.disabled);
  const switchedOff = entries
    .filter((g) => g.disabled)
    .map((g) => ({ name: g.name, nickname: g.nickname ?? g.name }));

  const hostedNames = new Set(enabled.filter((g) => g.type === 'hosted').map((g) => g.name));
  const kept = enabled.filter((g) => {
    if (g.type === 'offline' && hostedNames.has(g.name)) {
      warnings.push(
        `Graph '${g.name}' is configured both as hosted and as offline; using the hosted graph and ignoring the offline one.`,
      );
      return false;
    }
    return true;
  });

  const labels = new Map<string, GraphLabel>();
  const graphs: ConfiguredGraph[] = [];
  for (const entry of kept) {
    const nickname = entry.nickname ?? entry.name;
    const problem = labelProblem(entry, nickname, labels);
    if (problem) {
      errors.push(problem);
      continue;
    }
    const token = entry.token === undefined ? undefined : checkToken(entry.token, nickname, errors, warnings);
    const graph: ConfiguredGraph = { name: entry.name, type: entry.type, nickname };
    if (token !== undefined) graph.token = token;
    if (entry.description !== undefined) graph.description = entry.description;
    if (entry.accessLevel !== undefined) graph.accessLevel = entry.accessLevel;
    if (entry.grantedAccessLevel !== undefined) graph.grantedAccessLevel = entry.grantedAccessLevel;
    if (entry.whenNobodyCanAsk !== undefined) graph.whenNobodyCanAsk = entry.whenNobodyCanAsk;
    if (entry.confirm !== undefined) graph.confirm = entry.confirm;
    for (const label of ownLabels(graph))
      if (!labels.has(labelKey(label.text))) labels.set(labelKey(label.text), label);
    graphs.push(graph);
  }
  return { graphs, switchedOff, errors, warnings };
}

/** A nickname or name, and the graph it belongs to. */
interface GraphLabel {
  kind: 'nickname' | 'name';
  text: string;
  graph: string;
}

function ownLabels(graph: { name: string; nickname: string }): GraphLabel[] {
  return [
    { kind: 'nickname', text: graph.nickname, graph: graph.name },
    { kind: 'name', text: graph.name, graph: graph.name },
  ];
}

/** Why this entry's nickname is refused or clashes with an earlier graph's label, if it does. */
function labelProblem(
  entry: GraphEntry,
  nickname: string,
  taken: ReadonlyMap<string, GraphLabel>,
): string | undefined {
  const problem = nicknameProblem(nickname);
  if (problem) {
    const what = entry.nickname === undefined ? 'name (used as its nickname)' : 'nickname';
    return `Graph '${printableLabel(entry.name)}': the ${what} '${printableLabel(nickname)}' ${problem}, or give the graph another nickname.`;
  }
  for (const own of ownLabels({ name: entry.name, nickname })) {
    const other = taken.get(labelKey(own.text));
    if (!other) continue;
    const mine =
      own.kind === 'nickname'
        ? `Nickname '${own.text}' (graph '${printableLabel(own.graph)}')`
        : `The name of graph '${printableLabel(own.graph)}'`;
    return (
      `${mine} clashes with '${printableLabel(other.text)}', already the ${other.kind} of graph '${printableLabel(other.graph)}': an agent naming one could get the other. ` +
      `Nicknames and graph names are compared ignoring case and Unicode variants (full-width letters, composed accents) and must be unique. Give one of them a different nickname.`
    );
  }
  return undefined;
}

/**
 * Resolution (docs/mcp.md): nickname first, then the graph name, both compared as labels (graph-identity.ts);
 * validateGraphs guarantees no label belongs to two graphs.
 */
export function findGraph<G extends { name: string; nickname: string }>(
  graphs: readonly G[],
  ref: string,
): G | undefined {
  const wanted = labelKey(ref);
  if (!wanted) return undefined;
  return (
    graphs.find((g) => labelKey(g.nickname) === wanted) ??
    graphs.find((g) => g.name === ref.trim()) ??
    graphs.find((g) => labelKey(g.name) === wanted)
  );
}

/**
 * The Local API scopes a token of this level has (docs/mcp.md, Configuration: `accessLevel`);
 * `read-edit-own` needs a token with edit scope (roam-mcp narrows it to the agent's own content).
 */
export function scopesOf(level: AccessLevel): Array<'read' | 'append' | 'edit'> {
  switch (level) {
    case 'read-only':
      return ['read'];
    case 'read-append':
      return ['read', 'append'];
    case 'read-edit-own':
    case 'full':
      return ['read', 'append', 'edit'];
  }
}

const rank: Record<AccessLevel, number> = { 'read-only': 0, 'read-append': 1, 'read-edit-own': 2, full: 3 };
export function isLowerAccess(granted: AccessLevel, requested: AccessLevel): boolean {
  return rank[granted] < rank[requested];
}

/** The narrowest of the known levels, or undefined when none is known. */
export function narrowestAccess(levels: ReadonlyArray<AccessLevel | undefined>): AccessLevel | undefined {
  let narrowest: AccessLevel | undefined;
  for (const level of levels) if (level && (!narrowest || rank[level] < rank[narrowest])) narrowest = level;
  return narrowest;
}

/** What to ask Roam for when the user chose `level`: Roam has no `read-edit-own` token, so `full`. */
export function tokenLevelFor(level: AccessLevel): TokenAccessLevel {
  return level === 'read-edit-own' ? 'full' : level;
}
