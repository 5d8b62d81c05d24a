/**
 * How the access level a user chose relates to what Roam granted a token. Roam's token dialog
 * grants three levels; a chosen level roam-mcp adds on top (it enforces them itself) needs a token
 * that can edit. A chosen level narrower than the grant is enforced by roam-mcp; a wider one needs
 * a new token.
 */
import { ACCESS_LEVELS, isLowerAccess, type AccessLevel } from './roam-config.ts';

/** The levels Roam's token dialog grants. */
export const ROAM_TOKEN_LEVELS: readonly AccessLevel[] = ['read-only', 'read-append', 'full'];

/** The Roam token level to ask for so the chosen level can be served. */
export function tokenLevelFor(chosen: AccessLevel): AccessLevel {
  return ROAM_TOKEN_LEVELS.includes(chosen) ? chosen : 'full';
}

/** The chosen levels a token Roam granted at `granted` can serve without a new request. */
export function levelsCovered(granted: AccessLevel): AccessLevel[] {
  return ACCESS_LEVELS.filter((level) => !isLowerAccess(granted, tokenLevelFor(level)));
}
