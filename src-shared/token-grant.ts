/**
 * How the access level a user chose relates to what Roam granted a token: a chosen level needs a
 * token at least as wide as the level Roam is asked for (`tokenLevelFor`); roam-mcp enforces a
 * chosen level narrower than the grant, and a wider one needs a new token.
 */
import { ACCESS_LEVELS, isLowerAccess, tokenLevelFor, type AccessLevel } from './roam-config.ts';

/** The chosen levels a token Roam granted at `granted` can serve without a new request. */
export function levelsCovered(granted: AccessLevel): AccessLevel[] {
  return ACCESS_LEVELS.filter((level) => !isLowerAccess(granted, tokenLevelFor(level)));
}
