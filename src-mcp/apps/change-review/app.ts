/**
 * The change-review MCP App (docs/undo.md, "In the chat"): runs in the host's sandboxed frame,
 * shows what list_changes or undo_changes answered, and undoes through the host (tools/call on
 * this server), always after the dry run and exactly the changes the dry run showed. It is also
 * the approval view (docs/mcp.md, "Consent before a write takes much away"): a write the consent
 * gate holds arrives as a proposal, drawn with Approve and Keep, which call the app-only tool the
 * result's `_meta` names; the model is told what the person decided. Other writes' results draw
 * nothing. Light or dark from the host's theme, else the system's.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { fateView, outcomeView, proposalView } from './proposal-view.ts';
import { readFate, readResult, type Proposal, type Shown, type ToolCall } from './results.ts';
import { undoInBatches } from './undo-batches.ts';
import { listView, messageView, reportView, type ViewActions } from './view.ts';

const app = new App({ name: 'Roam change review', version: '1' }, {}, { autoResize: true });
const root = document.getElementById('app') as HTMLElement;

function applyHost(context: Partial<McpUiHostContext> | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

/** The ids of the change(s) the open dry run is about (undefined: the whole chat). */
let pending: string[] | undefined;

/** The proposal on screen, if any (its expiry is checked against it). */
let open: Proposal | undefined;
/** The proposal whose Approve or Keep the person pressed here, while that call runs. */
let answeringHere: Proposal | undefined;

function show(shown: Shown): void {
  open = undefined;
  if (shown.kind === 'proposal') return showProposal(shown);
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

const textOf = (result: { content?: Array<{ type: string; text?: string }> }) =>
  (result.content ?? []).flatMap((c) => (c.type === 'text' && c.text ? [c.text] : [])).join('\n');

/** A result's first text: an approval's outcome line, before the write's own result. */
const firstText = (result: { content?: Array<{ type: string; text?: string }> }) => {
  const [first] = result.content ?? [];
  return first?.type === 'text' ? (first.text ?? '') : '';
};

/** Tells the model what the person decided (it reads it with the next turn). */
function tellModel(text: string): void {
  void app.updateModelContext({ content: [{ type: 'text', text }] }).catch(() => {});
}

async function call(name: string, args: Record<string, unknown>): Promise<void> {
  root.setAttribute('aria-busy', 'true');
  try {
    show(readResult(await app.callServerTool({ name, arguments: args })));
  } catch (error) {
    show({ kind: 'message', text: error instanceof Error ? error.message : String(error), error: true });
  }
}

async function answer(proposal: Proposal, values: ToolCall): Promise<void> {
  root.setAttribute('aria-busy', 'true');
  answeringHere = proposal;
  try {
    const result = await app.callServerTool({ name: values.tool, arguments: values.arguments });
    // Refused: perhaps answered elsewhere first; then say what became of it instead.
    if (result.isError && (await settledElsewhere(proposal, true))) return;
    const text = textOf(result);
    open = undefined;
    // The outcome line only: the write's own result (JSON, uids) is for the model.
    const said = readResult(result);
    const line = result.isError && said.kind === 'message' ? said.text : firstText(result);
    root.replaceChildren(outcomeView(line, result.isError === true));
    root.setAttribute('aria-busy', 'false');
    document.getElementById('outcome-heading')?.focus();
    tellModel(`The person answered the change that waited for them: ${text}`);
  } catch (error) {
    show({ kind: 'message', text: error instanceof Error ? error.message : String(error), error: true });
  }
}

/**
 * The person pressed Undo after its dry run, and the undo came back as a proposal (a big one, on
 * a client that cannot ask): that press was the answer. The undo's own report follows the outcome.
 */
async function approvedUndo(values: ToolCall, outcomes: string[]): Promise<Shown> {
  const result = await app.callServerTool({ name: values.tool, arguments: values.arguments });
  const [outcome, ...rest] = result.content ?? [];
  if (outcome?.type === 'text' && outcome.text) outcomes.push(outcome.text);
  return readResult({ ...result, content: result.isError ? (result.content ?? []) : rest });
}

/** Undo exactly the changes the dry run showed, in batches the tool takes (undo-batches.ts). */
async function undoShown(ids: string[]): Promise<void> {
  root.setAttribute('aria-busy', 'true');
  /** What each approval of a held batch answered, for the model. */
  const outcomes: string[] = [];
  try {
    const { report, stopped, reached } = await undoInBatches(ids, async (batch) => {
      const shown = readResult(await app.callServerTool({ name: 'undo_changes', arguments: { ids: batch } }));
      if (shown.kind !== 'proposal') return shown;
      return approvedUndo(shown.approve, outcomes);
    });
    if (!report) show({ kind: 'message', text: stopped?.text ?? '', error: stopped?.error ?? false });
    else {
      const note = stopped
        ? `Undid the newest ${reached} of the ${ids.length} changes the dry run showed, then stopped: ${stopped.text} The other ${ids.length - reached} were not undone.`
        : undefined;
      root.replaceChildren(reportView(report, ids, actions, note));
      root.setAttribute('aria-busy', 'false');
      document.getElementById('report-heading')?.focus();
    }
    if (outcomes.length) {
      const total = report ? ` Took back ${report.undone} change(s).` : '';
      const end = stopped ? ` Then it stopped: ${stopped.text}` : '';
      tellModel(`The person undid changes from the change review: ${outcomes[0]}${total}${end}`);
    }
  } catch (error) {
    show({ kind: 'message', text: error instanceof Error ? error.message : String(error), error: true });
  }
}

/**
 * How often an open approval view, while it can be seen, asks what became of its proposal (also
 * when seen again or reached for): no server message reaches an app, so an answer given in Roam
 * Companion takes its buttons away within this long. The question is one small app-only call.
 */
const FATE_CHECK_MS = 3_000;

/**
 * Whether the proposal was settled elsewhere (answered in Roam Companion or another view, expired,
 * withdrawn): then the view shows what became of it instead of live buttons, and tells the model.
 */
async function settledElsewhere(proposal: Proposal, pressedHere = false): Promise<boolean> {
  // The person's own press is on its way: its answer says what became of it.
  if (answeringHere === proposal && !pressedHere) return false;
  const result = await app
    .callServerTool({ name: 'read_proposal', arguments: { proposal: String(proposal.view.id ?? '') } })
    .catch(() => undefined);
  const fate = result && !result.isError ? readFate(textOf(result)) : undefined;
  if (open !== proposal || !fate || fate.status === 'waiting' || fate.status === 'answering') return false;
  if (answeringHere === proposal && !pressedHere) return false;
  open = undefined;
  root.replaceChildren(fateView(fate.status, fate.outcome));
  root.setAttribute('aria-busy', 'false');
  document.getElementById('outcome-heading')?.focus();
  tellModel(
    fate.status === 'expired'
      ? 'The change that waited for the person expired unanswered: nothing was changed.'
      : `The person answered the change that waited for them elsewhere: ${fate.outcome}`,
  );
  return true;
}

/** While the proposal is open: asked when the view is shown again, and every FATE_CHECK_MS. */
function watchFate(proposal: Proposal): void {
  let asking = false;
  const ask = () => {
    if (asking || open !== proposal) return;
    asking = true;
    void settledElsewhere(proposal).finally(() => (asking = false));
  };
  const check = () => {
    if (open !== proposal) return stop();
    // A view out of sight asks when it is seen again (visibilitychange), not on a timer.
    if (document.visibilityState !== 'hidden') ask();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') check();
  };
  // The person reaching for the buttons (pointer or focus) asks too, one question at a time:
  // answered in Roam Companion meanwhile, the buttons go before they can be pressed.
  const timer = setInterval(check, FATE_CHECK_MS);
  document.addEventListener('visibilitychange', onVisible);
  root.addEventListener('pointerover', ask);
  root.addEventListener('focusin', ask);
  function stop() {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
    root.removeEventListener('pointerover', ask);
    root.removeEventListener('focusin', ask);
  }
}

function showProposal(proposal: Proposal): void {
  root.replaceChildren(
    proposalView(proposal, {
      approve: () => void answer(proposal, proposal.approve),
      keep: () => void answer(proposal, proposal.keep),
    }),
  );
  root.setAttribute('aria-busy', 'false');
  open = proposal;
  document.getElementById('proposal-heading')?.focus();
  watchFate(proposal);
  const expires = Date.parse(String(proposal.view.expiresAt));
  if (Number.isNaN(expires)) return;
  setTimeout(
    () => {
      if (open !== proposal) return;
      show({
        kind: 'message',
        text: 'This change waited too long and expired: nothing was changed.',
        error: false,
      });
      tellModel('The change that waited for the person expired unanswered: nothing was changed.');
    },
    Math.max(0, expires - Date.now()),
  );
}

const undoArgs = (ids: string[] | undefined) => (ids ? { ids } : { all: true });

const actions: ViewActions = {
  preview(ids) {
    pending = ids;
    void call('undo_changes', { ...undoArgs(ids), dryRun: true });
  },
  confirm(ids) {
    pending = ids;
    // The dry run's own ids: never "the whole chat" again, which may hold later changes.
    void undoShown(ids);
  },
  more: (offset) => void call('list_changes', { offset }),
  refresh: () => void call('list_changes', {}),
};

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && document.querySelector('.dry-run')) actions.refresh();
});

app.ontoolresult = (params) => {
  const shown = readResult(params);
  // Another write's plain result (the approval view shows only what waits): nothing to draw.
  if (shown.kind === 'message' && !shown.error) {
    root.replaceChildren();
    root.setAttribute('aria-busy', 'false');
    return;
  }
  show(shown);
};
app.onhostcontextchanged = (context) => applyHost(context);
void app.connect().then(() => applyHost(app.getHostContext()));
