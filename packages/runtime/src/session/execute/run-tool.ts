import type { AgentToolResult } from "@tooldock/sdk";
import { createToolContext, type ToolContextSource } from "../tool-context.js";
import type { RegisteredTool } from "../tool-registry.js";
import { failed, type StepOutcome, type ToolCall } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/**
 * Runs the tool with its own `AbortController`, linked to the host's signal and to
 * `ctx.abort()`. A throw (of anything) or an abort ends the call with an error result; an
 * abort answers at once even when the tool ignores its signal.
 */
export async function runTool(
  entry: RegisteredTool,
  params: unknown,
  call: ToolCall,
  source: ToolContextSource,
): Promise<StepOutcome<unknown>> {
  const name = entry.tool.name;
  if (call.signal?.aborted) return failed(toolCallMessages.aborted(name, call.signal.reason));
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(call.signal?.reason);
  call.signal?.addEventListener("abort", forwardAbort, { once: true });
  let ended = false;
  const onUpdate =
    call.onUpdate && ((partial: AgentToolResult) => (ended ? undefined : call.onUpdate?.(partial)));
  const ctx = createToolContext(source, { toolCallId: call.toolCallId, toolName: name, controller });

  const aborted = new Promise<StepOutcome<unknown>>((resolve) => {
    controller.signal.addEventListener(
      "abort",
      () => resolve(failed(toolCallMessages.aborted(name, controller.signal.reason))),
      { once: true },
    );
  });
  const finished = new Promise<unknown>((resolve) => {
    resolve(entry.tool.execute(call.toolCallId, params as never, onUpdate, ctx, controller.signal));
  }).then(
    (value): StepOutcome<unknown> => ({ ok: true, value }),
    (error: unknown) => failed(toolCallMessages.threw(name, error)),
  );
  try {
    return await Promise.race([finished, aborted]);
  } finally {
    ended = true;
    call.signal?.removeEventListener("abort", forwardAbort);
  }
}
