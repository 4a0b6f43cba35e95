import type { AgentToolResult } from "./tool-result.js";

/**
 * A change a tool has previewed but not made. It sits on the session's pending stack until
 * the model calls `resolve` with `apply` or `discard`.
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
