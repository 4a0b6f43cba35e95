import type { AgentToolResult } from "./tool-result.js";

/**
 * A change a tool has previewed but not made, as callbacks. It sits on the session's pending
 * stack until the model calls `resolve` with `apply` or `discard`. Its callbacks live in the
 * process that staged it: in a durable store it is bound to that process (see
 * {@link CustomToolDurableAction} for the form any process can apply).
 */
export interface CustomToolPendingAction {
  /** Short human description, e.g. `Rename 3 files`. Shown to the model and the user. */
  label: string;
  /** Makes the change for real. Throwing keeps the action pending (nothing is lost). */
  apply(reason: string): Promise<AgentToolResult<unknown>>;
  /** Cleans up when the action is discarded. Its result, when given, replaces the default text. */
  reject?(reason: string): Promise<AgentToolResult<unknown> | undefined>;
  /** Anything the host may show beside the label (a diff, a list of files). */
  details?: unknown;
  /** The tool that staged the action. Default `"custom_tool"`. */
  sourceToolName?: string;
}

/**
 * A change a tool has previewed but not made, as data: a JSON `payload` and the name of a
 * `handler` the staging tool declares in its `actions`. Any process that loaded the same
 * tool can apply it, so a durable store keeps it across restarts and processes. Build one
 * with {@link durableAction} to have the handler name and the payload type checked.
 */
export interface CustomToolDurableAction<TPayload = unknown> {
  /** Short human description, e.g. `Rename 3 files`. Shown to the model and the user. */
  label: string;
  /** The key of the handler in the staging tool's `actions`. */
  handler: string;
  /** JSON data (copied when staged) handed to the handler's `apply` and `reject`. */
  payload: TPayload;
  /** Anything the host may show beside the label (a diff, a list of files). */
  details?: unknown;
  /**
   * The tool that declares the handler: the tool whose call stages the action (a tool cannot
   * stage an action for another tool's handler). Only host code staging outside a call names it.
   */
  sourceToolName?: string;
}

/** What a handler of durable actions is told besides the payload and the reason. */
export interface PendingActionHandlerContext {
  /** The id of the session whose stack held the action. */
  sessionId: string;
  /** The session's working directory. */
  cwd: string;
  /** The action's id (stable across processes). */
  actionId: string;
  /** The action's label. */
  label: string;
}

/**
 * How a tool applies (and cleans up) the durable actions it stages: declared once in the
 * tool's `actions`, under the name the actions give as `handler`.
 */
export interface PendingActionHandler<TPayload = unknown> {
  /** Makes the change for real. Throwing keeps the action pending (nothing is lost). */
  apply(
    payload: TPayload,
    reason: string,
    ctx: PendingActionHandlerContext,
  ): Promise<AgentToolResult<unknown>>;
  /** Cleans up when the action is discarded. Its result, when given, replaces the default text. */
  reject?(
    payload: TPayload,
    reason: string,
    ctx: PendingActionHandlerContext,
  ): Promise<AgentToolResult<unknown> | undefined>;
}

/** The handlers a tool declares, by name. */
// biome-ignore lint/suspicious/noExplicitAny: each handler has its own payload type.
export type PendingActionHandlers = Record<string, PendingActionHandler<any>>;

/** The payload type of a handler: what its `apply` takes (a `reject` without annotations does not widen it). */
export type PayloadOf<THandler> = THandler extends {
  // biome-ignore lint/suspicious/noExplicitAny: the rest of apply's parameters do not matter here.
  apply(payload: infer TPayload, ...rest: any[]): unknown;
}
  ? TPayload
  : never;
