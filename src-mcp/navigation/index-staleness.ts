/**
 * The link index settings (docs/navigation.md, "Freshness"), given to the server's `LinkIndexes`
 * (index-cache.ts) where it is built:
 * the staleness window, from `--index-staleness-ms N` or ROAM_MCP_INDEX_STALENESS_MS,
 * milliseconds during which navigation answers from the cached index without asking Roam whether
 * it changed (0 = ask every call); and the folder where built indexes outlive the process.
 */

/** Default staleness window: a burst of calls costs one check. */
export const DEFAULT_STALENESS_MS = 2_000;
export const STALENESS_ENV = 'ROAM_MCP_INDEX_STALENESS_MS';
/** An hour: beyond that, a cached index could hide a day's work of another client. */
export const MAX_STALENESS_MS = 3_600_000;

/** The window in ms, or an error message saying what to write instead. */
export function parseStaleness(text: string, origin: string): number | string {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0 || value > MAX_STALENESS_MS)
    return `${origin} must be a whole number of milliseconds from 0 to ${MAX_STALENESS_MS} (got '${text}'); 0 checks Roam on every navigation call, the default is ${DEFAULT_STALENESS_MS}.`;
  return value;
}

/** The flag, else the env var; a bad env value gives a warning and the default. */
export function stalenessFrom(
  flag: number | undefined,
  env: NodeJS.ProcessEnv,
): { ms: number; warning?: string } {
  if (flag !== undefined) return { ms: flag };
  const text = env[STALENESS_ENV];
  if (text === undefined) return { ms: DEFAULT_STALENESS_MS };
  const parsed = parseStaleness(text, STALENESS_ENV);
  if (typeof parsed === 'number') return { ms: parsed };
  return { ms: DEFAULT_STALENESS_MS, warning: `${parsed} Using ${DEFAULT_STALENESS_MS}.` };
}

export interface LinkIndexSettings {
  stalenessMs: number;
  /** Where each graph's built index is kept between processes; none: in memory only. */
  dir?: string;
}
