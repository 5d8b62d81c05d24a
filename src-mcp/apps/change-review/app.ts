/**
 * The change-review MCP App (docs/undo.md, "In the chat"): runs in the host's sandboxed frame,
 * shows what list_changes or undo_changes answered, and undoes through the host (tools/call on
 * this server), always after the dry run. Light or dark from the host's theme, else the system's.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { readResult, type Shown } from './results.ts';
import { listView, messageView, reportView, type ViewActions } from './view.ts';

const app = new App({ name: 'Roam change review', version: '1' }, {}, { autoResize: true });
const root = document.getElementById('app') as HTMLElement;

function applyHost(context: Partial<McpUiHostContext> | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

/** The ids of the change(s) the open dry run is about (undefined: the whole chat). */
let pending: string[] | undefined;

function show(shown: Shown): void {
  const view =
    shown.kind === 'list'
      ? listView(shown, actions)
      : shown.kind === 'undo'
        ? reportView(shown, pending, actions)
        : messageView(shown, actions);
  root.replaceChildren(view);
  root.setAttribute('aria-busy', 'false');
  // Keyboard users land on what changed: the dry run's question or the outcome.
  if (shown.kind === 'undo') document.getElementById('report-heading')?.focus();
}

async function call(name: string, args: Record<string, unknown>): Promise<void> {
  root.setAttribute('aria-busy', 'true');
  try {
    show(readResult(await app.callServerTool({ name, arguments: args })));
  } catch (error) {
    show({ kind: 'message', text: error instanceof Error ? error.message : String(error), error: true });
  }
}

const undoArgs = (ids: string[] | undefined) => (ids ? { ids } : { all: true });

const actions: ViewActions = {
  preview(ids) {
    pending = ids;
    void call('undo_changes', { ...undoArgs(ids), dryRun: true });
  },
  confirm(ids) {
    pending = ids;
    void call('undo_changes', undoArgs(ids));
  },
  more: (offset) => void call('list_changes', { offset }),
  refresh: () => void call('list_changes', {}),
};

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && document.querySelector('.dry-run')) actions.refresh();
});

app.ontoolresult = (params) => show(readResult(params));
app.onhostcontextchanged = (context) => applyHost(context);
void app.connect().then(() => applyHost(app.getHostContext()));
