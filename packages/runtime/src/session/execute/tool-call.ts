import type { AgentToolResult } from "@tooldock/sdk";

/** One call the model made, as the host hands it to `Session.execute`. */
export interface ToolCall {
  toolCallId: string;
  name: string;
  /** The arguments as the model sent them; validated before the tool sees them. */
  params: unknown;
  /** Aborting it aborts the call: the tool's `signal` fires and `execute` answers at once. */
  signal?: AbortSignal;
  /** Receives the tool's partial results while it runs (dropped once the call has ended). */
  onUpdate?: (partial: AgentToolResult) => void;
}

/** A step either passes a value on or ends the call with a result for the model. */
export type StepOutcome<T> = { ok: true; value: T } | { ok: false; result: AgentToolResult };

/** An `isError` result with one text block. */
export function failed(text: string): { ok: false; result: AgentToolResult } {
  return { ok: false, result: { content: [{ type: "text", text }], isError: true } };
}
