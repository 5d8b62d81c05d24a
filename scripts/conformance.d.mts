/** The conformance scenarios scripts/conformance.mjs runs, per era. */
export const SCENARIOS: string[];
export const SCENARIOS_2026: string[];
