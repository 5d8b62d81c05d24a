/**
 * What an agent may be shown of changes (issue 31): never the text of a block hidden from AI
 * (`#.rm-hide`, `#.rm-private`; docs/navigation.md "Hidden blocks"), hidden now or when the
 * journal recorded it, by its own tag or a block above it. A person's views (the CLI, the tray) show everything.
 */
import { carriesHidingTag, HIDING_TAGS } from '../../roam/hidden-blocks.ts';
import { quote } from '../journal/summary.ts';
import type { Change, ChangeOp, Op, StepResult } from '../journal/types.ts';
import type { ChangeReport } from './undo-engine.ts';

/** What Roam hides from AI now, as src-mcp/roam/hidden-blocks.ts reads it. */
export interface HiddenNow {
  uids: ReadonlySet<string>;
  strings: ReadonlySet<string>;
  /** Roam could not say (the graph is not configured any more): every recorded text counts as hidden. */
  unknown?: true;
}

/** What stands in for a hidden text. */
export const HIDDEN_TEXT = "'[hidden from AI]'";

function recordedStrings(change: Change): string[] {
  const values: string[] = [];
  JSON.stringify(change.ops, (_key, value: unknown) => {
    if (typeof value === 'string') values.push(value);
    return value;
  });
  return values;
}

/** The change recorded a hidden uid or text, or a text that was hidden when it was written. */
export function touchesHidden(change: Change, hidden: HiddenNow): boolean {
  if (hidden.unknown || change.ops.some((o) => o.hidden)) return true;
  return recordedStrings(change).some(
    (v) => hidden.uids.has(v) || hidden.strings.has(v) || carriesHidingTag(v),
  );
}

/** The ops an undo of this change would take back (what is already undone writes nothing). */
function pendingOps(change: Change): ChangeOp[] {
  if (change.undone) return [];
  return change.ops.filter((o) => (o.outcome === 'applied' || o.outcome === 'unconfirmed') && !o.undoneBy);
}

/**
 * What each reversing write addresses: the blocks it changes, moves or deletes and the parent it
 * puts blocks under. Blocks under a visible block that comes back or goes whole are carried
 * intact, as the agent's own delete or move of that block carries them.
 */
function addressedBy(op: Op): string[] {
  switch (op.kind) {
    case 'create-blocks':
      return [
        ...(op.parent ? [op.parent] : []),
        ...(op.uids ?? []),
        ...op.tree.flatMap((node) => (node.uid ? [node.uid] : [])),
      ];
    case 'update-block':
      return [op.uid];
    case 'move-block':
      return [op.uid, op.before.parent];
    case 'delete-blocks':
      return op.items.map((item) => item.parent);
    case 'comment':
      return [op.block];
    default:
      return [];
  }
}

/** The uids to ask Roam about (hiddenAmong) before an agent's undo of this change. */
export function undoAddresses(change: Change): string[] {
  return pendingOps(change).flatMap((o) => addressedBy(o.op));
}

/**
 * Whether taking this change back would write to a block hidden from AI, judged as the agent's
 * own write would be (docs/mcp.md, Hidden blocks): an addressed block or place hidden now
 * (`hiddenNow`: the answer for undoAddresses), an op that touched a block hidden when recorded, or
 * a text with a hiding tag the undo would take away or bring back.
 */
const isTag = (title: string) => (HIDING_TAGS as readonly string[]).includes(title);

export function undoTouchesHidden(change: Change, hiddenNow: ReadonlySet<string>): boolean {
  const tagged = (text: string | undefined) => text !== undefined && carriesHidingTag(text);
  return pendingOps(change).some(({ op, hidden }) => {
    if (hidden || addressedBy(op).some((uid) => hiddenNow.has(uid))) return true;
    switch (op.kind) {
      case 'create-blocks':
        return op.tree.some((node) => tagged(node.string));
      case 'update-block':
        return tagged(op.before.string) || tagged(op.after.string);
      case 'delete-blocks':
        return op.items.some((item) => tagged(item.block.string));
      case 'rename-page':
        // Renaming a page to or from a hiding tag hides or shows every block that refers to it.
        return isTag(op.before) || isTag(op.after);
      default:
        return false;
    }
  });
}

/**
 * Each change's secrets, per reading of what is hidden: a change's description asks once per
 * op, and a change of thousands of ops would otherwise gather its texts again for each.
 */
const secretsSeen = new WeakMap<Change, WeakMap<HiddenNow, ReadonlySet<string>>>();

/** The texts an agent may not see quoted in what is said about this change. */
function secretsOf(change: Change | undefined, hidden: HiddenNow): ReadonlySet<string> {
  if (!change) return hidden.strings;
  let byHidden = secretsSeen.get(change);
  if (!byHidden) secretsSeen.set(change, (byHidden = new WeakMap()));
  let secrets = byHidden.get(hidden);
  if (!secrets) byHidden.set(hidden, (secrets = gatherSecrets(change, hidden)));
  return secrets;
}

function gatherSecrets(change: Change, hidden: HiddenNow): Set<string> {
  const secrets = new Set(hidden.strings);
  const recorded = recordedStrings(change);
  // Anything recorded about a block hidden now may be its text then.
  const all =
    hidden.unknown === true || change.ops.some((o) => o.hidden) || recorded.some((v) => hidden.uids.has(v));
  for (const text of recorded) if (all || carriesHidingTag(text)) secrets.add(text);
  return secrets;
}

/** `text` with every quoted secret replaced; wholly replaced when part of one shows otherwise. */
function redact(text: string, secrets: ReadonlySet<string>): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(quote(secret)).join(HIDDEN_TEXT);
  const flat = out.replace(/\s+/g, ' ');
  const leaks = [...secrets].some((secret) => sharesRun(flat, secret.replace(/\s+/g, ' ').trim()));
  return leaks || carriesHidingTag(out) ? HIDDEN_DETAIL : out;
}

const HIDDEN_DETAIL = 'a block hidden from AI is involved (its text is not shown)';
/** Quotes cut around a difference show this much of a text at least. */
const RUN = 16;

function sharesRun(text: string, secret: string): boolean {
  if (secret.length < RUN) return false;
  for (let i = 0; i + RUN <= secret.length; i++) if (text.includes(secret.slice(i, i + RUN))) return true;
  return false;
}

/** Whether an agent may not see this text recorded by (or read for) this change. */
export function isHiddenText(change: Change, text: string, hidden: HiddenNow): boolean {
  return redact(text, secretsOf(change, hidden)) !== text;
}

/** A change's one-line summary as an agent may see it. */
export function agentSummary(change: Change, hidden: HiddenNow): string {
  return touchesHidden(change, hidden) ? `${change.tool} on a block hidden from AI` : change.summary;
}

/** An undo report's change as an agent may see it: summary, step details and conflicts redacted. */
export function agentChangeReport(
  report: ChangeReport,
  change: Change | undefined,
  hidden: HiddenNow,
): ChangeReport {
  const secrets = secretsOf(change, hidden);
  const step = (s: StepResult): StepResult => ({
    ...s,
    detail: redact(s.detail, secrets),
    ...(s.conflicts ? { conflicts: s.conflicts.map((c) => redact(c, secrets)) } : {}),
  });
  return {
    ...report,
    summary: change ? agentSummary(change, hidden) : redact(report.summary, secrets),
    steps: report.steps.map(step),
  };
}
