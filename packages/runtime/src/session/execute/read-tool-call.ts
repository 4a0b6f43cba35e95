import { describeError } from "../../util/describe-error.js";
import type { ToolCall } from "./tool-call.js";

/** A host's tool call read once into a fresh object, or what is wrong with it. */
export type ToolCallReading = { ok: true; call: ToolCall } | { ok: false; name: string; problem: string };

/**
 * Reads each field of the call the host passed exactly once (`toolCallId`, `name`, `params`,
 * `signal`, `onUpdate`), so a getter or proxy cannot answer differently later in the
 * pipeline. Never throws. `name` must be a string, `signal` an `AbortSignal` and `onUpdate` a
 * function when given; a `toolCallId` that is not a string is turned into one.
 */
export function readToolCall(value: unknown): ToolCallReading {
  if (typeof value !== "object" || value === null)
    return {
      ok: false,
      name: "",
      problem: `expected a call object, got ${value === null ? "null" : typeof value}`,
    };
  const source = value as Record<string, unknown>;
  let field = "toolCallId";
  try {
    const toolCallId = source.toolCallId;
    field = "name";
    const name = source.name;
    if (typeof name !== "string")
      return { ok: false, name: "", problem: `name must be a string, got ${typeof name}` };
    field = "params";
    const params = source.params;
    field = "signal";
    const signal = source.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal))
      return { ok: false, name, problem: "signal must be an AbortSignal when given" };
    field = "onUpdate";
    const onUpdate = source.onUpdate;
    if (onUpdate !== undefined && typeof onUpdate !== "function")
      return { ok: false, name, problem: "onUpdate must be a function when given" };
    const call: ToolCall = {
      toolCallId: typeof toolCallId === "string" ? toolCallId : String(toolCallId),
      name,
      params,
    };
    if (signal !== undefined) call.signal = signal;
    if (onUpdate !== undefined) call.onUpdate = onUpdate as ToolCall["onUpdate"];
    return { ok: true, call };
  } catch (error) {
    return { ok: false, name: "", problem: `reading ${field} threw (${describeError(error)})` };
  }
}
