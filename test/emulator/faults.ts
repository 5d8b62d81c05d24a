/** Injected failures (`setFault`): which request gets which fault, how many times. */
import type { Fault } from './types.ts';

interface ActiveFault {
  fault: Fault;
  action?: string;
  remaining: number;
}

/** Roam-like bodies for injected status faults. */
export function faultBody(status: 500 | 504, graph: string | undefined): Record<string, unknown> {
  const name = graph ? `'${graph}'` : 'the graph';
  const message =
    status === 504
      ? `Timed out waiting for graph ${name} to load. If the graph is encrypted, enter its encryption password in Roam Desktop, then retry.`
      : `Internal error while running the action on graph ${name}: the graph window was closed. Retry once Roam Desktop has the graph open.`;
  return { success: false, error: { message } };
}

export class FaultPlan {
  private active: ActiveFault | null = null;

  set(fault: Fault | null, options: { action?: string; times?: number } = {}): void {
    if (!fault) {
      this.active = null;
      return;
    }
    if (options.times !== undefined && (!Number.isInteger(options.times) || options.times < 1)) {
      throw new Error(`setFault: "times" must be a positive integer, got ${options.times}.`);
    }
    this.active = { fault, remaining: options.times ?? Infinity };
    if (options.action !== undefined) this.active.action = options.action;
  }

  /** The fault for this request (consuming one use), if any applies. */
  take(action: string | undefined): Fault | undefined {
    const active = this.active;
    if (!active || (active.action !== undefined && active.action !== action)) return undefined;
    active.remaining -= 1;
    if (active.remaining <= 0) this.active = null;
    return active.fault;
  }
}
