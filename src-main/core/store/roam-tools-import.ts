/**
 * First-run import of the official server's `~/.roam-tools.json` (legacy `~/.roam-mcp.json`),
 * with the user's consent. All or nothing: if the merged list breaks a rule, nothing is imported
 * and the error lists every problem. The source file is left untouched (other tools still use it).
 */
import { readRegularFile } from '../../../src-shared/node/read-regular-file.ts';
import { configFileSchema, describeTokenProblem, type GraphEntry } from '../../../src-shared/roam-config.ts';
import { graphId } from '../../../src-shared/constants.ts';
import { nicknameOf } from '../../../src-shared/graph-identity.ts';
import { CoreError } from '../core-error.ts';
import { type TrayStore, type StoreData, type StoredGraph } from './tray-store.ts';
import { assertGraphRules, newStoredGraph } from './graph-rules.ts';
import { configFileCandidates } from '../../../src-shared/config-files.ts';

export interface ImportCheck {
  available: boolean;
  path: string;
  graphCount: number;
}

async function readSource(home: string): Promise<{ path: string; text?: string }> {
  const candidates = configFileCandidates(home);
  for (const file of candidates) {
    try {
      // Never a plain read: a FIFO there would hang the tray.
      const text = await readRegularFile(file);
      if (text !== undefined) return { path: file, text };
    } catch {
      // Try the next candidate.
    }
  }
  return { path: candidates[0]! };
}

function parseSource(file: string, text: string): GraphEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CoreError(
      'VALIDATION',
      `${file} is not valid JSON (${(error as Error).message}). Fix the file, then import again.`,
    );
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CoreError(
      'VALIDATION',
      `${file} does not look like a roam-mcp config (${issue?.path.join('.') || 'root'}: ${issue?.message}). Fix the file, then import again.`,
    );
  }
  return parsed.data.graphs;
}

export async function checkImport(home: string, data: StoreData): Promise<ImportCheck> {
  const source = await readSource(home);
  if (source.text === undefined || data.importDone)
    return { available: false, path: source.path, graphCount: 0 };
  try {
    // Only what the import would add: graphs already here are not counted, nor offered again.
    const here = new Set(data.graphs.map(graphId));
    const fresh = parseSource(source.path, source.text).filter((g) => !here.has(graphId(g)));
    return { available: fresh.length > 0, path: source.path, graphCount: fresh.length };
  } catch {
    // Offer it anyway: running the import explains what is wrong with the file.
    return { available: true, path: source.path, graphCount: 0 };
  }
}

export async function runImport(home: string, store: TrayStore): Promise<StoreData> {
  const source = await readSource(home);
  if (source.text === undefined) {
    throw new CoreError(
      'NOT_FOUND',
      `There is no ${source.path} to import. Add graphs with Add graph instead.`,
    );
  }
  const entries = parseSource(source.path, source.text);
  const tokenProblems = entries.flatMap((e) => {
    const problem = e.token === undefined ? undefined : describeTokenProblem(e.token, nicknameOf(e));
    return problem ? [problem] : [];
  });
  if (tokenProblems.length)
    throw new CoreError('VALIDATION', `Nothing was imported. ${tokenProblems.join(' ')}`);

  const sealed = new Map<string, StoredGraph['token']>();
  for (const entry of entries) {
    if (entry.token) sealed.set(graphId(entry), await store.sealToken(entry.token));
  }
  return store.update((data) => {
    const before = structuredClone(data.graphs);
    for (const entry of entries) {
      const id = graphId(entry);
      const existing = data.graphs.find((g) => graphId(g) === id);
      const token = sealed.get(id);
      if (existing) {
        if (!existing.token && token) {
          existing.token = token;
          delete existing.grantedAccessLevel; // Roam tells what this one grants (tokens/info)
        }
        continue;
      }
      const graph = newStoredGraph(entry, data.settings.defaultAccessLevel);
      if (entry.disabled) graph.disabled = true;
      // "Ask before every write" chosen in the file stays chosen.
      if (entry.confirm) graph.confirm = entry.confirm;
      if (token) graph.token = token;
      data.graphs.push(graph);
    }
    try {
      assertGraphRules(before, data.graphs);
    } catch (error) {
      throw new CoreError(
        'VALIDATION',
        `Nothing was imported from ${source.path}. ${(error as Error).message}`,
      );
    }
    data.importDone = true;
  });
}
