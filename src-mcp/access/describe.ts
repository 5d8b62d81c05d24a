/** The sentence select_graph and current_graph add about a graph's effective access. */
import { isLowerAccess } from '../../src-shared/roam-config.ts';
import type { EffectiveAccess } from './effective.ts';
import { keyHow, keyThatCaps } from './refusals.ts';

export function accessNote(access: EffectiveAccess): string | undefined {
  const { level, granted, chosen, decidedBy } = access;
  if (!level) {
    return 'The access level of this token is not known (not in the config, and Roam did not say). Writes beyond it answer INSUFFICIENT_SCOPE.';
  }
  if (decidedBy === 'read-only-flag') {
    return 'This roam-mcp runs with --read-only: every change is refused, whatever the token allows.';
  }
  if (decidedBy === 'token' && chosen && isLowerAccess(level, chosen)) {
    return `The token allows only ${level}, less than the ${chosen} chosen for this graph: changes beyond it answer INSUFFICIENT_SCOPE until the user approves a new token.`;
  }
  const own =
    level === 'read-edit-own'
      ? ' Edits, moves and deletes are allowed only on blocks and pages an agent created.'
      : '';
  const key = decidedBy === 'chosen' ? keyThatCaps(level) : undefined;
  if (key) {
    return `This client's key '${key.name}' allows ${level} (its --access); roam-mcp enforces it whatever the graph's setting and the token allow.${own} ${keyHow(key.name)}`;
  }
  if (decidedBy === 'chosen' && granted && isLowerAccess(level, granted)) {
    return `The user chose ${level} for this graph; roam-mcp enforces it although the token allows ${granted}.${own}`;
  }
  return own ? own.trim() : undefined;
}
