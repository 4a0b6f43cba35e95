import type { AgentToolResult } from "@tooldock/sdk";
import type { ReportFault } from "./tool-call-fault.js";

/** The `onUpdate` a tool gets for one call, and how the call stops it. */
export interface UpdateForwarder {
  /** Undefined when the host gave no `onUpdate`: the tool then gets none either. */
  onUpdate: ((partial: AgentToolResult) => void) | undefined;
  /**
   * The call has ended: later updates are dropped. With `flush` (the tool returned or threw),
   * a coalesced update still waiting is delivered first, so the host's last partial is the
   * tool's last, before the result; without (the call was stopped), it is dropped too.
   */
  end(flush?: boolean): void;
}

/** The forwarder of a call whose host gave no `onUpdate`: the tool gets none either. */
export const NO_UPDATES: UpdateForwarder = Object.freeze({ onUpdate: undefined, end: () => {} });

/** How partial results travel from the tool to the host. */
export interface ForwardUpdatesOptions {
  /** The host's `onUpdate`. */
  target: ((partial: AgentToolResult) => void) | undefined;
  /** Least time between two deliveries; `0` delivers every update. */
  intervalMs: number;
  /** A partial as the host may see it (read and truncated), or undefined to drop it. */
  prepare(partial: unknown): AgentToolResult | undefined;
  report: ReportFault;
}

/**
 * Passes a tool's partial results to the host without letting either side hurt the other.
 * The first update goes at once; updates within `intervalMs` of a delivery are coalesced and
 * the newest is delivered when the interval ends, so a tool that floods `onUpdate` costs the
 * host at most one call per interval. A host `onUpdate` that throws or rejects is reported
 * (`update-listener-failed`) and never fails the call. Nothing is delivered after `end()`.
 */
export function forwardUpdates(options: ForwardUpdatesOptions): UpdateForwarder {
  const { target, intervalMs, prepare, report } = options;
  if (target === undefined) return NO_UPDATES;
  let ended = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting: { partial: unknown } | undefined;

  const deliver = (partial: unknown) => {
    const prepared = prepare(partial);
    if (prepared === undefined) return;
    try {
      const returned: unknown = target(prepared);
      if (typeof returned === "object" && returned !== null) {
        Promise.resolve(returned).then(undefined, (error: unknown) =>
          report("update-listener-failed", error),
        );
      }
    } catch (error) {
      report("update-listener-failed", error);
    }
  };
  const startInterval = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (ended || waiting === undefined) return;
      const { partial } = waiting;
      waiting = undefined;
      startInterval();
      deliver(partial);
    }, intervalMs);
  };

  const onUpdate = (partial: AgentToolResult) => {
    if (ended) return;
    if (intervalMs === 0) return deliver(partial);
    if (timer !== undefined) {
      waiting = { partial };
      return;
    }
    startInterval();
    deliver(partial);
  };
  const end = (flush = false) => {
    if (ended) return;
    ended = true;
    const last = waiting;
    waiting = undefined;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (flush && last !== undefined) deliver(last.partial);
  };
  return { onUpdate, end };
}
