import type { PendingActionHandler } from "@tooldock/sdk";
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
 * handler no loaded tool declares.
 */
export type EntryCallback =
  | { kind: "run"; run: () => unknown }
  | { kind: "none" }
  | { kind: "foreign"; owner: ProcessIdentity }
  | { kind: "no-handler"; handler: string };

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
