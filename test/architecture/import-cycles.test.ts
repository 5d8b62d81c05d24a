/**
 * No import cycles anywhere in the repository, type-only imports included (docs/architecture.md,
 * Layers). TypeScript's own pre-processor and module resolution build the graph, so `import type`,
 * `export … from` and `import()` all count, exactly as tsconfig.json resolves them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function importGraph(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const files = new Set(config.fileNames.map((f) => path.resolve(f)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true).importedFiles;
    const targets = imports
      .map((ref) => ts.resolveModuleName(ref.fileName, file, config.options, ts.sys).resolvedModule)
      .map((resolved) => resolved && path.resolve(resolved.resolvedFileName))
      .filter((target): target is string => target !== undefined && files.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do component.push((member = stack.pop()!));
    while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.map((c) => c.sort());
}

describe('import graph', () => {
  it('finds a cycle when there is one (so the check below can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('has no cycles in src-*, test, bench and scripts, type-only imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(150);
    expect(cycles(graph).map((c) => c.map((f) => path.relative(root, f)))).toEqual([]);
  });
});
