export type PassName = 'node22' | 'node24';
export declare const STDIO_SUITE: string[];
export declare const CLIENT_SUITE: string[];
export declare const PASSES: PassName[];
export declare const PASSES_ENV: 'ROAM_TEST_PASSES';
export declare function requestedPasses(value?: string): PassName[];
export declare function passOf(
  name: PassName,
): { files: string[]; env: Record<string, string>; skipped?: undefined } | { skipped: string };
