import type { PendingActionHandler } from "@tooldock/sdk";
import { RUNS_IN_TOOL_HOST } from "./callback-marks.js";
import type { ProcessIdentity } from "./journal/pending-journal.js";
import { callApply, callReject } from "./snapshot-pending-action.js";
import type { PendingEntry, StoreInternals } from "./store-internals.js";

// Captured when this module is evaluated, as in snapshot-pending-action.ts.
const reflectApply = Reflect.apply;

/**
 * How an entry's `apply` or `reject` runs here: `run` (a closure action of this process, or
 * a durable action whose tool is loaded, its handler called with the handler object as
 * `this`); `none` when there is nothing to run (a durable action without `reject`);
 * `foreign`, a callback action of another process; `no-handler`, a durable action whose
 * handler no loaded tool declares; `refused`, a durable action a tool staged in a tool host
 * whose handler here runs in this process (see {@link refusedInProcess}).
 */
export type EntryCallback =
  | { kind: "run"; run: () => unknown }
  | { kind: "none" }
  | { kind: "foreign"; owner: ProcessIdentity }
  | { kind: "no-handler"; handler: string }
  | { kind: "refused"; handler: string };

/** The entry's `apply` (or `reject`) with `reason`, as {@link EntryCallback} tells. */
export function entryCallback(
  internals: Pick<StoreInternals, "binding">,
  entry: PendingEntry,
  callback: "apply" | "reject",
  reason: string,
): EntryCallback {
  const { action, record } = entry;
  if (action.form === "foreign") return { kind: "foreign", owner: action.owner };
  if (action.form === "closure")
    return callback === "apply"
      ? { kind: "run", run: () => callApply(action, reason) }
      : { kind: "run", run: () => callReject(action, reason) };
  const handler = findHandler(internals, record.sourceToolName, action.handler);
  if (handler === undefined) return { kind: "no-handler", handler: action.handler };
  if (refusedHandler(internals, record.isolated, handler))
    return { kind: "refused", handler: action.handler };
  const method = handler[callback];
  if (typeof method !== "function") return { kind: "none" };
  const binding = internals.binding as NonNullable<StoreInternals["binding"]>;
  // The folder it was planned in, wherever it is applied.
  const ctx = {
    ...binding.context,
    cwd: action.cwd ?? binding.context.cwd,
    actionId: record.id,
    label: record.label,
  };
  return { kind: "run", run: () => reflectApply(method, handler, [action.payload, reason, ctx]) };
}

/** The handler `name` of the loaded tool `toolName`, when it declares one with an `apply`. */
export function findHandler(
  internals: Pick<StoreInternals, "binding">,
  toolName: string,
  name: string,
): PendingActionHandler | undefined {
  const handlers = internals.binding?.handlers(toolName);
  if (handlers === undefined || !Object.hasOwn(handlers, name)) return undefined;
  const handler = handlers[name];
  return typeof handler?.apply === "function" ? handler : undefined;
}

/**
 * Whether the entry is a durable action a tool staged in a tool host (`isolated`) that its
 * handler here may not run: a handler of this process, not one of the loader's that forwards to
 * a tool host (`RUNS_IN_TOOL_HOST`), and the session does not run such actions in-process
 * (`SessionOptions.isolatedActionsInProcess`). The sandboxed tool's payload would otherwise be
 * acted on with this process's rights. An interrupted entry runs nothing, so it is never refused.
 */
export function refusedInProcess(internals: Pick<StoreInternals, "binding">, entry: PendingEntry): boolean {
  return entry.interrupted !== true && entryCallback(internals, entry, "reject", "").kind === "refused";
}

function refusedHandler(
  internals: Pick<StoreInternals, "binding">,
  isolated: boolean | undefined,
  handler: PendingActionHandler,
): boolean {
  return (
    isolated === true &&
    internals.binding?.isolatedActionsInProcess !== "run" &&
    (handler as unknown as Record<symbol, unknown>)[RUNS_IN_TOOL_HOST] !== true
  );
}
