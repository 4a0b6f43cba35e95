// `@tooldock/runtime/internal`: names only Tooldock's own packages use (the loader's tool host
// words its answers exactly as a Session does). Not public API: it may change in any release.

/** Whether a promise settled within a deadline (the CLI's way out, the testing harness's dispose). */
export { settledWithin } from "./pending/callback-deadline.js";
/**
 * Marks between a pending action's callbacks and the store: a lost action, a callback given up
 * on, an action staged in a tool host and a handler that runs in one.
 */
export {
  ACTION_LOST,
  CALLBACK_GAVE_UP,
  RUNS_IN_TOOL_HOST,
  STAGED_IN_TOOL_HOST,
} from "./pending/callback-marks.js";
/** How a Session reads what an `apply` or `reject` returned: once, field by field, never throwing. */
export { readCallbackResult } from "./pending/resolve-details.js";
/**
 * What a Session checks and throws, for the tool host to check and throw the same; and how it
 * calls the `apply` and `reject` it read at push.
 */
export {
  type ClosureActionSnapshot,
  callApply,
  callReject,
  snapshotPendingAction,
} from "./pending/snapshot-pending-action.js";
/** The store a record was pushed into, and the ids still pending in a store: the tool host counts what it staged by them. */
export { pendingIds, storeOfRecord } from "./pending/store-internals.js";
/** Hears of a call's stop without an `AbortSignal` (for an `execute` marked `STOP_THROUGH_CONTEXT`). */
export { callStopOf } from "./session/execute/call-abort.js";
export { outputProblem } from "./session/execute/check-structured-content.js";
/** How a Session reads a tool's result or partial: once, into a plain copy, or the problem with it. */
export { readResult } from "./session/execute/read-result.js";
/** The texts of the error results a Session answers with. */
export { toolCallMessages } from "./session/execute/tool-call-messages.js";
export { latePushError } from "./session/execute/tool-call-scope.js";
/**
 * Whether a tool's `execute` can see its context and its `AbortSignal` (read from its
 * source, erring towards yes), and the `execute` a tool record was read from: the tool host
 * creates neither for a tool that cannot, as a Session does.
 */
export { argumentsSeen, STOP_THROUGH_CONTEXT } from "./session/execute/tool-sees-signal.js";
/** Calls an `execute` written in pi's order (signal, onUpdate, ctx) with Tooldock's arguments. */
export { adaptLegacyExecute } from "./session/execute-order.js";
export { toolOrigin } from "./session/snapshot-tool.js";
export { noCallPushError } from "./session/tool-context.js";
/** A provider's image types: the images it takes, and a note for the rest (for the AI SDK adapter). */
export { imageTypes } from "./steering/result-blocks.js";
/** A count and its noun for messages: `1 file`, `0 files`, `3 files`. */
export { count } from "./util/count.js";
/** A thrown value in one line, as a Session words it for the model (never throws). */
export { describeError } from "./util/describe-error.js";
/** A label in quotes for a message, curly ones when it holds a double quote: `"Write a.txt"`, `“Rename: "a" → "b"”`. */
export { quoted } from "./util/quoted.js";
/** Loads a package on first use, synchronously, as the instance an `import` of it gives. */
export { requireShared } from "./util/require-shared.js";
/** A listener set whose listeners cannot break each other or their owner (thrown or rejected). */
export { SafeEmitter } from "./util/safe-emitter.js";
