/** The tools issue 12 adds (comments, daily capture, shortcuts, discovery, extensions, desktop UI), in tools/list order. */
import type { ToolDefinition } from '../tool-definition.ts';
import { commentTools } from './comments.ts';
import { dailyNoteTools } from './daily-notes.ts';
import { desktopUiTools } from './desktop-ui.ts';
import { discoveryTools } from './discovery.ts';
import { extensionTools } from './extensions.ts';
import { shortcutTools } from './shortcuts.ts';

export const issue12Tools: ToolDefinition[] = [
  ...dailyNoteTools,
  ...commentTools,
  ...discoveryTools,
  ...shortcutTools,
  ...desktopUiTools,
  ...extensionTools,
];
