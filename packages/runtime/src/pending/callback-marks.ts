/**
 * Marks between an action's callbacks and the store that runs them, for Tooldock's own
 * callbacks (the loader's stand-ins for actions staged in a tool host); see
 * `@tooldock/runtime/internal`. Registered symbols, so another copy of this package agrees.
 */

/**
 * Marks an error an `apply` threw because its action can never run (its tool host stopped):
 * the store discards the action instead of putting it back.
 */
export const ACTION_LOST = Symbol.for("tooldock.action-lost");

/**
 * On an `apply` or `reject` function: called (no arguments, its fault ignored) when the store
 * gives up waiting for it (the resolve deadline), so that whoever runs it elsewhere can check
 * that it still answers (a tool host in a busy loop is then stopped).
 */
export const CALLBACK_GAVE_UP = Symbol.for("tooldock.callback-gave-up");

/**
 * On a durable action the loader stages for a tool that runs in a tool host (`isolation:
 * "process"`): its record says so (`PendingActionRecord.isolated`), and a durable store keeps
 * it, so whoever applies it later knows its handler belongs in a tool host too. A tool host
 * cannot set it (the host builds the object it pushes); an in-process tool that sets it only
 * asks for more isolation.
 */
export const STAGED_IN_TOOL_HOST = Symbol.for("tooldock.staged-in-tool-host");

/**
 * On a durable action's handler (an entry of a tool's `actions`) that runs in a tool host: the
 * loader's proxies of an isolated tool carry it. An action {@link STAGED_IN_TOOL_HOST} is
 * applied or discarded only by such a handler, unless the session runs them in-process
 * (`SessionOptions.isolatedActionsInProcess`). An in-process tool that sets it on its own
 * handlers only vouches for itself, which it is trusted to do.
 */
export const RUNS_IN_TOOL_HOST = Symbol.for("tooldock.runs-in-tool-host");

/** Whether `error` carries {@link ACTION_LOST}; never throws. */
export function isActionLost(error: unknown): boolean {
  try {
    return (
      typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[ACTION_LOST] === true
    );
  } catch {
    return false;
  }
}

/** Calls `callback`'s {@link CALLBACK_GAVE_UP} hook, if it has one; never throws. */
export function tellGaveUp(callback: unknown): void {
  try {
    const hook =
      typeof callback === "function"
        ? (callback as unknown as Record<symbol, unknown>)[CALLBACK_GAVE_UP]
        : undefined;
    if (typeof hook === "function") hook();
  } catch {
    // The hook's fault is its own: the store has its answer already.
  }
}
