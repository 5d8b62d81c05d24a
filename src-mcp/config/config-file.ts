/**
 * Reading and writing the graph config file (`~/.roam-tools.json` and friends) with errors a
 * person can act on: the file, the line and column of a JSON syntax error, the field with the
 * wrong type. Writing back a token keeps every other entry and unknown field as it was.
 */
import { readFile, realpath } from 'node:fs/promises';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { withFileLock } from '../../src-shared/node/file-lock.ts';
import {
  configFileSchema,
  validateGraphs,
  type AccessLevel,
  type ConfiguredGraph,
  type GraphType,
} from '../../src-shared/roam-config.ts';

export interface ParsedConfigFile {
  graphs: ConfiguredGraph[];
  errors: string[];
  warnings: string[];
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
  const { graphs, errors, warnings } = validateGraphs(parsed.data.graphs);
  return {
    graphs,
    errors: errors.map((e) => `${file}: ${e}`),
    warnings: warnings.map((w) => `${file}: ${w}`),
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
 * Where writes to a config path land: the link's target when the path is a symlink (dotfile
 * managers), so the rename of an atomic write updates the real file instead of replacing the link.
 */
export async function configWriteTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return file; // Not there yet: it is created where the user pointed.
  }
}

/**
 * Stores a token obtained by exchange in the file the graph came from: atomically, mode 0600,
 * other entries and unknown fields untouched. Adds the entry if it is no longer there. Runs under
 * a lock beside the file: several roam-mcp processes storing tokens at once all keep theirs.
 */
export async function saveTokenToFile(
  file: string,
  graph: { name: string; type: GraphType; nickname?: string },
  token: string,
  grantedAccessLevel: AccessLevel,
): Promise<void> {
  const target = await configWriteTarget(file);
  await withFileLock(
    `${target}.lock`,
    `Could not store the token: ${target} is being updated by another roam-mcp process (lock ${target}.lock). ` +
      'Try again; if no other roam-mcp runs, delete the lock file.',
    async () => {
      let doc: { graphs?: unknown[]; [key: string]: unknown } = { version: 1, graphs: [] };
      try {
        const parsed: unknown = JSON.parse(await readFile(target, 'utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) doc = parsed as typeof doc;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const graphs = Array.isArray(doc.graphs) ? doc.graphs : [];
      const entry = graphs.find(
        (g): g is Record<string, unknown> =>
          !!g &&
          typeof g === 'object' &&
          (g as Record<string, unknown>).name === graph.name &&
          ((g as Record<string, unknown>).type ?? 'hosted') === graph.type,
      );
      if (entry) {
        entry.token = token;
        entry.accessLevel = grantedAccessLevel;
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
      doc.graphs = graphs;
      await writeFileAtomic(target, `${JSON.stringify(doc, null, 2)}\n`, 0o600);
    },
  );
}

/** The token the file now holds for this graph (another process may have stored one), if any. */
export async function readStoredToken(
  file: string,
  graph: { name: string; type: GraphType },
): Promise<{ token: string; accessLevel?: AccessLevel } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const found = parseConfigText(text, file).graphs.find(
    (g) => g.name === graph.name && g.type === graph.type,
  );
  if (!found?.token) return undefined;
  return found.accessLevel ? { token: found.token, accessLevel: found.accessLevel } : { token: found.token };
}
