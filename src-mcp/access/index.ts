/**
 * Access levels, enforced by roam-mcp itself (docs/mcp.md, Access levels): the effective access
 * of a graph, the one check before a write, the refusals, and the plug-in point through which the
 * change journal says what agents created (`setAgentCreations`).
 */
export {
  effectiveAccess,
  permissionsOf,
  PERMISSIONS,
  type EffectiveAccess,
  type Permission,
} from './effective.ts';
export { enforceAccess, enforceUndoAccess } from './guard.ts';
export { rememberGuidelines, setAgentCreations, type AgentCreations } from './own-content.ts';
export {
  ACCESS_LEVEL,
  everyGraphReadOnlyRefusal,
  GRAPH_SWITCHED_OFF,
  readOnlyFlagRefusal,
} from './refusals.ts';
