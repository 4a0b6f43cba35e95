import type { AgentToolResult } from "@tooldock/sdk";
import { createToolContext, type ToolContextSource } from "../tool-context.js";
import type { RegisteredTool } from "../tool-registry.js";
import { createCallAbort } from "./call-abort.js";
import { forwardUpdates } from "./forward-updates.js";
import { failed, type StepOutcome, type ToolCall } from "./tool-call.js";
import type { ReportFault } from "./tool-call-fault.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** What running a tool needs from its session. */
export interface RunToolOptions {
  source: ToolContextSource;
  /** Aborted when the session is disposed. */
  sessionSignal: AbortSignal;
  /** `Infinity`: no deadline. */
  timeoutMs: number;
  updateIntervalMs: number;
  /** A partial result as the host may see it, or undefined to drop it. */
  prepareUpdate(partial: unknown, report: ReportFault): AgentToolResult | undefined;
}

/**
 * Runs the tool with its own `AbortController`, linked to the host's signal, to
 * `ctx.abort()`, to `dispose()` and to the deadline. A throw (of anything), an abort or a
 * timeout ends the call with an error result at once, even when the tool ignores its
 * signal; whatever the tool settles with later is dropped and reported as `late-settle`.
 */
export async function runTool(
  entry: RegisteredTool,
  params: unknown,
  call: ToolCall,
  options: RunToolOptions,
  report: ReportFault,
): Promise<StepOutcome<unknown>> {
  const name = call.name;
  if (call.signal?.aborted) return failed(toolCallMessages.aborted(name, call.signal.reason));
  const abort = createCallAbort({
    name,
    hostSignal: call.signal,
    sessionSignal: options.sessionSignal,
    timeoutMs: options.timeoutMs,
  });
  const { controller } = abort;
  let ended = false;
  const hasEnded = () => ended || controller.signal.aborted;
  const updates = forwardUpdates({
    target: call.onUpdate,
    intervalMs: options.updateIntervalMs,
    prepare: (partial) => options.prepareUpdate(partial, report),
    report,
  });
  const ctx = createToolContext(options.source, {
    toolCallId: call.toolCallId,
    toolName: name,
    controller,
    hasEnded,
    onLatePush: (error) => report("late-push-refused", error),
  });

  // A thenable that is not a Promise is adopted here, as `await` would.
  const settled = new Promise<unknown>((resolve) => {
    resolve(entry.tool.execute(call.toolCallId, params as never, updates.onUpdate, ctx, controller.signal));
  });
  const finished = settled.then(
    (value): StepOutcome<unknown> => {
      if (hasEnded()) report("late-settle");
      return { ok: true, value };
    },
    (error: unknown) => {
      if (hasEnded()) report("late-settle", error);
      return failed(toolCallMessages.threw(name, error));
    },
  );
  try {
    return await Promise.race([finished, abort.stopped]);
  } finally {
    ended = true;
    updates.end();
    abort.release();
  }
}
