/**
 * The effective access to a graph (docs/mcp.md, Access levels): the narrowest of the level the
 * user chose, the level Roam granted the token and `--read-only`. roam-mcp enforces it itself,
 * whatever the token could do.
 */
import { narrowestAccess, scopesOf, type AccessLevel } from '../../src-shared/roam-config.ts';

/** What select_graph, current_graph and list_graphs report. `edit-own`: only what agents created. */
export type Permission = 'read' | 'append' | 'edit-own' | 'edit';
export const PERMISSIONS = ['read', 'append', 'edit-own', 'edit'] as const;

/** Which setting decided the effective level. */
export type AccessSetting = 'read-only-flag' | 'chosen' | 'token';

export interface EffectiveAccess {
  /** undefined: nothing known (no level chosen, the token's grant unknown, no --read-only). */
  level: AccessLevel | undefined;
  permissions: Permission[] | 'unknown';
  /** The setting whose level is the effective one (the user's settings win a tie with the token). */
  decidedBy?: AccessSetting;
  chosen?: AccessLevel;
  granted?: AccessLevel;
}

/** The token's scopes, except that read-edit-own's edit scope is narrowed to the agent's own content. */
export function permissionsOf(level: AccessLevel): Permission[] {
  return scopesOf(level).map((scope) => (scope === 'edit' && level === 'read-edit-own' ? 'edit-own' : scope));
}

export function effectiveAccess(input: {
  chosen: AccessLevel | undefined;
  granted: AccessLevel | undefined;
  readOnly: boolean;
}): EffectiveAccess {
  const settings: Array<[AccessSetting, AccessLevel | undefined]> = [
    ['read-only-flag', input.readOnly ? 'read-only' : undefined],
    ['chosen', input.chosen],
    ['token', input.granted],
  ];
  const level = narrowestAccess(settings.map(([, value]) => value));
  const decidedBy = settings.find(([, value]) => level !== undefined && value === level)?.[0];
  return {
    level,
    permissions: level ? permissionsOf(level) : 'unknown',
    ...(decidedBy ? { decidedBy } : {}),
    ...(input.chosen ? { chosen: input.chosen } : {}),
    ...(input.granted ? { granted: input.granted } : {}),
  };
}
