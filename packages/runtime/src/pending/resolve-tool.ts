import { type AgentToolResult, type CustomTool, errorResult } from "@tooldock/sdk";
import { applyTopAction } from "./apply-top-action.js";
import { checkCallbackTimeout } from "./callback-deadline.js";
import { discardTopAction } from "./discard-top-action.js";
import type { PendingActionStore } from "./pending-action-store.js";
import { type ResolveDetails, resolveError } from "./resolve-details.js";
import {
  INVALID_RESOLVE_ARGUMENTS_MESSAGE,
  NOTHING_PENDING_MESSAGE,
  newerOnTopText,
  RESOLVE_BUSY_MESSAGE,
  resolvedElsewhereText,
} from "./resolve-messages.js";
import { isResolveParams, ResolveParameters } from "./resolve-parameters.js";
import { type PendingEntry, STALE_STACK, storeInternals } from "./store-internals.js";

/** The name of the hidden tool that applies or discards the newest pending action. */
export const RESOLVE_TOOL_NAME = "resolve";

const DESCRIPTION =
  "Apply or discard the newest pending action: a change another tool has previewed but not made. " +
  'Nothing changes until you call this with action "apply"; "discard" drops the change. ' +
  "Always give a short reason.";

/** Options of {@link createResolveTool}. */
export interface ResolveToolOptions {
  /**
   * Longest the tool waits for an action's `apply` or `reject`, in milliseconds (an integer
   * from 1 to 2147483647). Default: the store's `callbackTimeoutMs`. A timed-out `apply`
   * puts the action back on top (same id, same record) and answers that it is still
   * pending; a timed-out `reject` counts as discarded and the answer says the cleanup timed
   * out. Either way the store is free for the next resolve.
   */
  timeoutMs?: number;
}

/**
 * Creates the hidden `resolve` tool bound to `store` (docs/contract.md §3). It acts on the top (newest)
 * action; a failed or timed-out apply puts the same action back on top; only one resolve
 * runs at a time per store, and none holds it past its deadline. A `Session` registers one
 * for its own store automatically.
 *
 * @example
 * ```ts
 * const store = new PendingActionStore();
 * const resolve = createResolveTool(store);
 * await resolve.execute("call-1", { action: "apply", reason: "looks right" }, undefined, ctx);
 * ```
 */
export function createResolveTool(
  store: PendingActionStore,
  options: ResolveToolOptions = {},
): CustomTool<typeof ResolveParameters, ResolveDetails> {
  const internals = storeInternals(store);
  const timeoutMs =
    options.timeoutMs === undefined
      ? internals.callbackTimeoutMs
      : checkCallbackTimeout("createResolveTool option timeoutMs", options.timeoutMs);
  return {
    name: RESOLVE_TOOL_NAME,
    label: "Resolve",
    description: DESCRIPTION,
    parameters: ResolveParameters,
    hidden: true,
    async execute(_toolCallId, params) {
      if (!isResolveParams(params)) return errorResult(INVALID_RESOLVE_ARGUMENTS_MESSAGE);
      if (internals.resolving) return errorResult(RESOLVE_BUSY_MESSAGE);
      internals.resolving = true;
      try {
        const resolveTop = async (entry: PendingEntry, top: boolean) =>
          params.action === "apply"
            ? await applyTopAction(internals, entry, params.reason, timeoutMs, top)
            : await discardTopAction(internals, entry, params.reason, timeoutMs, top);
        // A durable store: the stack this process holds is claimed as it is, on the condition
        // that no newer action is open in the store (one round trip); the store is read first
        // only when the stack is empty, or when that condition fails (another process staged
        // or resolved something meanwhile).
        const syncing = internals.sync(true);
        const read = syncing === undefined ? true : await syncing;
        const entry = internals.take();
        if (entry === undefined) return errorResult(NOTHING_PENDING_MESSAGE);
        const result = await resolveTop(entry, !read);
        if (result !== STALE_STACK) return result;
        await internals.sync();
        // The action the caller meant is gone (another process resolved it, or is resolving
        // it): say so, never resolve the one below it in its place.
        const again = internals.take();
        if (again?.record.id === entry.record.id)
          // Still the top here (what failed was, say, a newer record another process is
          // applying): claimed without `top`, a resolve never answers STALE_STACK.
          return (await resolveTop(again, false)) as AgentToolResult<ResolveDetails>;
        // Never resolve another action in place of the one the caller saw on top.
        if (again !== undefined) internals.restore(again);
        const stillPending = store.list().some((record) => record.id === entry.record.id);
        const text =
          again !== undefined && stillPending
            ? newerOnTopText(entry.record, again.record)
            : resolvedElsewhereText(entry.record);
        return resolveError(params.action, text, params.reason, entry.record);
      } finally {
        internals.letGo();
        internals.resolving = false;
      }
    },
  };
}
