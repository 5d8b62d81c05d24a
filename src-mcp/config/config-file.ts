/**
 * Reading and writing the graph config file (`~/.roam-tools.json` and friends) with errors a
 * person can act on: the file, the line and column of a JSON syntax error, the field with the
 * wrong type. Writing back a token keeps every other entry and unknown field as it was.
 */
import { graphId, sameGraph } from '../../src-shared/constants.ts';
import { readRegularFile } from '../../src-shared/node/read-regular-file.ts';
import {
  ACCESS_LEVELS,
  CONFIRM_POLICIES,
  configFileSchema,
  entryGraphId,
  type ConfirmPolicy,
  validateGraphs,
  type AccessLevel,
  narrowestAccess,
  type ConfiguredGraph,
  type GraphType,
  type SwitchedOffGraph,
} from '../../src-shared/roam-config.ts';
import { editConfigFile } from './config-write.ts';

export interface ParsedConfigFile {
  graphs: ConfiguredGraph[];
  /** Disabled graphs: naming one tells the agent it is switched off. */
  switchedOff?: SwitchedOffGraph[];
  errors: string[];
  warnings: string[];
  /** `uploadFolders`: where file_upload may read local files (src-mcp/uploads/upload-folders.ts). */
  uploadFolders?: string[];
  /** `confirm`: whether to ask before destructive writes (src-mcp/gate/confirm.ts). */
  confirm?: ConfirmPolicy;
}

/** Parses config text; never throws: problems come back as `errors` naming `file`. */
export function parseConfigText(text: string, file: string): ParsedConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { graphs: [], errors: [describeJsonError(text, file, error)], warnings: [] };
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length
        ? issue.path
            .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
            .join('')
            .replace(/^\./, '')
        : '(top level)';
      return `${where}: ${issue.message}`;
    });
    return {
      graphs: [],
      errors: [
        `${file} does not have the expected shape: ${problems.join('; ')}. ` +
          `Expected {"version": 1, "graphs": [{"name": "...", "type": "hosted" | "offline", "token": "roam-graph-local-token-...", "nickname": "..."}]}.`,
      ],
      warnings: [],
    };
  }
  const { graphs, switchedOff, errors, warnings } = validateGraphs(parsed.data.graphs);
  const uploads = uploadFoldersOf(json as Record<string, unknown>, file);
  const confirm = confirmOf(parsed.data.confirm, file);
  return {
    graphs,
    switchedOff,
    errors: errors.map((e) => `${file}: ${e}`),
    warnings: [...warnings.map((w) => `${file}: ${w}`), ...uploads.warnings, ...confirm.warnings],
    ...(uploads.folders ? { uploadFolders: uploads.folders } : {}),
    ...(confirm.policy ? { confirm: confirm.policy } : {}),
  };
}

/** `uploadFolders` when it is a list of strings; anything else is ignored with a warning. */
function uploadFoldersOf(json: Record<string, unknown>, file: string) {
  const value = json.uploadFolders;
  if (value === undefined) return { warnings: [] };
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return { folders: value, warnings: [] };
  return {
    warnings: [
      `${file}: uploadFolders must be a list of folder paths, e.g. ["~/Pictures"]; it is ignored, so file_upload reads no local file.`,
    ],
  };
}

/** `confirm` when it is `never` or `destructive`; anything else is ignored with a warning. */
function confirmOf(value: unknown, file: string): { policy?: ConfirmPolicy; warnings: string[] } {
  if (value === undefined) return { warnings: [] };
  if (CONFIRM_POLICIES.includes(value as ConfirmPolicy))
    return { policy: value as ConfirmPolicy, warnings: [] };
  return {
    warnings: [
      `${file}: confirm must be "never" or "destructive", not ${JSON.stringify(value)}; it is ignored, so destructive writes ask first (clients with elicitation).`,
    ],
  };
}

function describeJsonError(text: string, file: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /position (\d+)/.exec(message);
  let where = '';
  if (match) {
    const position = Number(match[1]);
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    where = ` at line ${line}, column ${column}`;
  } else if (text.trim() === '') {
    where = ' (the file is empty)';
  }
  const detail = message.replace(/ in JSON at position \d+.*$/, '').replace(/^.*?: /, '');
  return `${file} is not valid JSON${where}: ${detail}. Fix the file (or delete it and run 'roam-mcp connect').`;
}

/**
 * Stores a token obtained by exchange in the file the graph came from: atomically, under the
 * config lock (several roam-mcp processes and `connect` storing at once all keep theirs), mode
 * kept, other entries and unknown fields untouched. Adds the entry if it is no longer there.
 * @throws ConfigNotWritableError when the file is not ours to rewrite (config-write.ts).
 */
export async function saveTokenToFile(
  file: string,
  graph: { name: string; type: GraphType; nickname?: string },
  token: string,
  grantedAccessLevel: AccessLevel,
): Promise<void> {
  await editConfigFile(file, (doc) => {
    const graphs = doc.graphs as unknown[];
    const entry = graphs.find(
      (g): g is Record<string, unknown> => !!g && typeof g === 'object' && entryGraphId(g) === graphId(graph),
    );
    if (entry) {
      entry.token = token;
      // The user's choice stays when it is narrower than the grant (read-edit-own is asked as full).
      const chosen = ACCESS_LEVELS.includes(entry.accessLevel as AccessLevel)
        ? (entry.accessLevel as AccessLevel)
        : undefined;
      entry.accessLevel = narrowestAccess([chosen, grantedAccessLevel]);
      // A nickname the person gave in the file stays; an entry without one takes the one asked for.
      if (entry.nickname === undefined && graph.nickname && graph.nickname !== graph.name)
        entry.nickname = graph.nickname;
    } else {
      const added: Record<string, unknown> = {
        name: graph.name,
        type: graph.type,
        token,
        accessLevel: grantedAccessLevel,
      };
      if (graph.nickname && graph.nickname !== graph.name) added.nickname = graph.nickname;
      graphs.push(added);
    }
    return { doc, result: undefined };
  });
}

/** The token the file now holds for this graph (another process may have stored one), if any. */
export async function readStoredToken(
  file: string,
  graph: { name: string; type: GraphType },
): Promise<{ token: string; accessLevel?: AccessLevel } | undefined> {
  const text = await readRegularFile(file).catch(() => undefined);
  if (text === undefined) return undefined;
  const found = parseConfigText(text, file).graphs.find((g) => sameGraph(g, graph));
  if (!found?.token) return undefined;
  return found.accessLevel ? { token: found.token, accessLevel: found.accessLevel } : { token: found.token };
}
