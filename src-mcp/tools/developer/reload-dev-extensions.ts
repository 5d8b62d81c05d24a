/** reload_dev_extensions: reloads Roam's developer-mode extensions, for extension developers. */
import { defineTool, type ToolDefinition } from '../../contract/tool-definition.ts';
import { callFeature } from '../../contract/roam-feature.ts';
import { takesNothing } from '../../gate/plan-readers.ts';

export const developerTools: ToolDefinition[] = [
  defineTool({
    name: 'reload_dev_extensions',
    title: 'Reload developer extensions',
    description:
      "Reloads Roam's developer-mode extensions (like Ctrl-d Ctrl-r in Roam). For extension developers.",
    toolset: 'developer',
    feature: 'reloading developer extensions',
    actions: [
      { action: 'depot.reloadDeveloperExtensions', needs: 'a Roam Desktop build of 2026-07-16 or later' },
    ],
    scope: 'graph',
    // Runs extension code, which can change anything: a write (ticket, never under --read-only).
    writes: 'edit',
    // The developer's own code, reloaded as their Ctrl-d Ctrl-r would, in a toolset they chose.
    takes: takesNothing("reloads the developer's own extensions"),
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: {},
    async handler(_args, ctx) {
      const result = await callFeature<{ reloaded?: unknown } | null>(
        ctx,
        'depot.reloadDeveloperExtensions',
        [],
      );
      return { reloaded: Array.isArray(result?.reloaded) ? result.reloaded : [] };
    },
  }),
];
