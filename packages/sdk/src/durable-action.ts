import type { CustomToolDurableAction, PayloadOf, PendingActionHandlers } from "./types/pending-action.js";

/**
 * A durable action for the handler `handler` of `actions`, typed by it: the payload must be
 * what the handler's `apply` takes, and the name one of its keys. Pass the result to
 * `ctx.pushPendingAction`.
 *
 * @example
 * ```ts
 * const actions = {
 *   rename: {
 *     async apply(plan: { from: string; to: string }[]) { … return textResult("Renamed"); },
 *   },
 * } satisfies PendingActionHandlers;
 * // in execute:
 * ctx.pushPendingAction(durableAction(actions, "rename", { label: "Rename 2 files", payload: plan }));
 * ```
 */
export function durableAction<
  THandlers extends PendingActionHandlers,
  TName extends keyof THandlers & string,
>(
  _actions: THandlers,
  handler: TName,
  action: Omit<CustomToolDurableAction<PayloadOf<THandlers[TName]>>, "handler" | "sourceToolName">,
): CustomToolDurableAction<PayloadOf<THandlers[TName]>> {
  return { ...action, handler };
}
