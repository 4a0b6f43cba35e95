import { orElse } from "../discover/expand-path.js";
import { remembered } from "../remembered.js";
import { createModuleFaults, type ModuleFaults } from "./module-faults.js";
import { holdExitGuard } from "./process-exit-guard.js";
import { holdRejectionGuard } from "./rejection-guard.js";
import { holdTimerTracking } from "./timer-tracker.js";

/**
 * The guards of one load batch, held from its first import to its end: `process.exit` stays
 * replaced (calls from a module's timers are blocked and recorded), unhandled rejections from a
 * module's async context are caught and recorded, and the timers modules create are tracked.
 * Each module's guarded steps carry its {@link ModuleFaults} record in their async context.
 */
export class LoadGuard {
  // Released in reverse: the timer stand-ins last, so the built-ins' ES exports they sync on
  // the way out see `process.exit` as it was, not the exit guard's stand-in.
  readonly #releases: Array<() => void> = [
    holdTimerTracking(),
    holdExitGuard(),
    holdRejectionGuard((reason) => this.#namedInStack(reason)),
  ];
  readonly #faults = new Map<string, ModuleFaults>();

  /** The record of a module (by its real path), created on first use. */
  faultsOf(resolvedPath: string): ModuleFaults {
    return remembered(this.#faults, resolvedPath, createModuleFaults);
  }

  /**
   * The record of the module whose file the first frame of `reason`'s stack names (Bun, whose
   * rejection listeners run outside the module's async context; see `holdRejectionGuard`).
   */
  #namedInStack(reason: unknown): ModuleFaults | undefined {
    // A getter that throws names no module.
    const stack = orElse(() => (reason as { stack?: unknown } | null)?.stack, undefined);
    if (typeof stack !== "string") return undefined;
    for (const line of stack.split("\n").slice(1)) {
      for (const [path, faults] of this.#faults) if (line.includes(`${path}:`)) return faults;
    }
    return undefined;
  }

  /**
   * Ends the batch: first lets the timers that are already due run (a `setTimeout(…, 0)` a
   * module started fires before this one, which was started later with the same delay), so
   * their exits and rejections are still caught (on Bun, one turn more, when it reports their
   * rejections); then releases every guard.
   */
  async close(): Promise<void> {
    try {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      // Bun reports the rejections of a turn's timers once they have all run: after this one.
      if (process.versions.bun !== undefined) await new Promise<void>((resolve) => setImmediate(resolve));
    } finally {
      for (const release of this.#releases.splice(0).reverse()) release();
    }
  }
}

/**
 * The `process` events whose listeners decide how the host fails or ends: an `exit` listener
 * can change its exit code, an `uncaughtException` one keeps it running after a crash, a
 * `SIGINT` one keeps Ctrl-C from ending it.
 */
const WATCHED_EVENTS = ["uncaughtException", "unhandledRejection", "exit", "beforeExit", "SIGINT", "SIGTERM"];

/**
 * Counts the listeners of the {@link WATCHED_EVENTS}; the returned function lists the events
 * that gained a listener since the previous call (or since this one), so a load batch calls it
 * after each module to learn which listeners that module added.
 */
export function watchProcessListeners(): () => string[] {
  const count = () => WATCHED_EVENTS.map((event) => process.listenerCount(event));
  let before = count();
  return () => {
    const now = count();
    const added = WATCHED_EVENTS.filter((_event, index) => (now[index] ?? 0) > (before[index] ?? 0));
    before = now;
    return added;
  };
}
