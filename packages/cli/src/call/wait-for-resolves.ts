import type { PendingActionRecord } from "@tooldock/runtime";
import { quoted } from "@tooldock/runtime/internal";
import { leftAfterStop } from "./interrupt-resolve.js";

/** A `resolve` call in flight: what it acts on, and a promise that settles when it ends. */
export interface RunningResolve {
  action: "apply" | "discard";
  label: string;
  /** A durable action (a handler and a payload): a store keeps it when the process ends. */
  durable: boolean;
  ended: Promise<void>;
}

/**
 * Keeps `running`, a resolve of `top` (the top action, read before the resolve started: it
 * takes it off the stack), in `resolves` until it ends. No top: nothing to resolve, nothing kept.
 */
export function trackResolve(
  resolves: Set<RunningResolve>,
  top: PendingActionRecord | undefined,
  params: unknown,
  running: Promise<unknown>,
): void {
  if (top === undefined) return;
  const entry: RunningResolve = {
    action: (params as { action?: unknown } | undefined)?.action === "discard" ? "discard" : "apply",
    label: top.label,
    durable: top.handler !== undefined,
    ended: running.then(
      () => {},
      () => {},
    ),
  };
  resolves.add(entry);
  void entry.ended.then(() => resolves.delete(entry));
}

/**
 * Waits, as a server stops, for the `resolve` calls still running: an action's apply or
 * reject takes no signal, and ending the process in its middle would leave its change half
 * made (a stored action marked interrupted) without a word. Says so first (`say`); each
 * resolve is bounded by the session's deadline. A second SIGINT or SIGTERM meanwhile ends the
 * process at once (130, 143) after saying what is left; `store` names where a durable action
 * stays and the command that discards it. `stopping: false`: only a session closes (the server
 * goes on), so signals are left to the server.
 */
export async function waitForResolves(
  running: readonly RunningResolve[],
  say: (text: string) => void,
  store?: { url: string; discard: string },
  options: { stopping?: boolean } = {},
): Promise<void> {
  if (running.length === 0) return;
  if (options.stopping === false) {
    // One session of a server that goes on: a signal now is the server's first, its own stop.
    say(`waiting for ${running.map(callbackOf).join(" and ")} to end before the session closes.`);
    await settled(running);
    return;
  }
  const stopNow = (signal: NodeJS.Signals) => {
    for (const resolve of running)
      say(
        `stopped during ${callbackOf(resolve)}: ${leftAfterStop(resolve.action, resolve.durable ? store : undefined)}`,
      );
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  // Listening before saying so: whoever reads the line may send the second signal at once.
  process.once("SIGINT", stopNow);
  process.once("SIGTERM", stopNow);
  say(
    `stopping: waiting for ${running.map(callbackOf).join(" and ")} to end, which cannot be stopped cleanly ` +
      "(at most its deadline). SIGINT or SIGTERM again stops at once; what it changed would then be unknown.",
  );
  try {
    await settled(running);
  } finally {
    process.off("SIGINT", stopNow);
    process.off("SIGTERM", stopNow);
  }
}

function callbackOf(resolve: RunningResolve): string {
  return `the ${resolve.action === "apply" ? "apply" : "reject"} of ${quoted(resolve.label)}`;
}

async function settled(running: readonly RunningResolve[]): Promise<void> {
  await Promise.all(running.map((resolve) => resolve.ended));
  // The handler returns the result, and the SDK sends it, in the microtasks after: a close
  // before them would drop the response the client still waits for.
  await new Promise((resolve) => setImmediate(resolve));
}
