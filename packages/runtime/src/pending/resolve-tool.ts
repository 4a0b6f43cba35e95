import { type CustomTool, errorResult } from "@tooldock/sdk";
import { applyTopAction } from "./apply-top-action.js";
import { discardTopAction } from "./discard-top-action.js";
import type { PendingActionStore } from "./pending-action-store.js";
import type { ResolveDetails } from "./resolve-details.js";
import {
  INVALID_RESOLVE_ARGUMENTS_MESSAGE,
  NOTHING_PENDING_MESSAGE,
  RESOLVE_BUSY_MESSAGE,
} from "./resolve-messages.js";
import { isResolveParams, ResolveParameters } from "./resolve-parameters.js";
import { storeInternals } from "./store-internals.js";

/** The name of the hidden tool that applies or discards the newest pending action. */
export const RESOLVE_TOOL_NAME = "resolve";

const DESCRIPTION =
  "Apply or discard the newest pending action: a change another tool has previewed but not made. " +
  'Nothing changes until you call this with action "apply"; "discard" drops the change. ' +
  "Always give a short reason.";

/**
 * Creates the hidden `resolve` tool bound to `store` (SPEC §3). It acts on the top (newest)
 * action; a failed apply puts the same action back on top; only one resolve runs at a time
 * per store. A `Session` registers one for its own store automatically.
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
): CustomTool<typeof ResolveParameters, ResolveDetails> {
  const internals = storeInternals(store);
  return {
    name: RESOLVE_TOOL_NAME,
    label: "Resolve",
    description: DESCRIPTION,
    parameters: ResolveParameters,
    hidden: true,
    async execute(_toolCallId, params) {
      if (!isResolveParams(params)) return errorResult(INVALID_RESOLVE_ARGUMENTS_MESSAGE);
      if (internals.resolving) return errorResult(RESOLVE_BUSY_MESSAGE);
      const entry = internals.take();
      if (entry === undefined) return errorResult(NOTHING_PENDING_MESSAGE);
      internals.resolving = true;
      try {
        return params.action === "apply"
          ? await applyTopAction(internals, entry, params.reason)
          : await discardTopAction(internals, entry, params.reason);
      } finally {
        internals.resolving = false;
      }
    },
  };
}
