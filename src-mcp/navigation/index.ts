/** Graph navigation tools and resources (issue: navigation). Registered by the server. */
import type { ResourceDefinition, ToolDefinition } from '../tool-definition.ts';

export const navigationTools: ToolDefinition[] = [];
export const navigationResources: ResourceDefinition[] = [];
