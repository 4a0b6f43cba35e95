import type { CustomTool, CustomToolContext, CustomToolSessionEvent } from "@tooldock/sdk";
import { callbackTimeoutError, settleWithin } from "../pending/callback-deadline.js";

const reflectApply = Reflect.apply;

/** Reports a hook that threw, rejected or did not settle in time. */
export type HookFaultHandler = (toolName: string, event: CustomToolSessionEvent, error: unknown) => void;

/**
 * Sends a lifecycle event to one tool's `onSession` and waits for it at most `timeoutMs`.
 * Never throws and never waits longer: a throw, a rejection or the deadline (an
 * `E_CALLBACK_TIMEOUT` error) goes to `onFault` and the session carries on. What a timed-out
 * hook does later is ignored.
 */
export async function notifyTool(
  tool: CustomTool,
  event: CustomToolSessionEvent,
  ctx: CustomToolContext,
  onFault: HookFaultHandler,
  timeoutMs: number,
): Promise<void> {
  const onSession = tool.onSession;
  if (onSession === undefined) return;
  const settlement = await settleWithin(() => reflectApply(onSession, tool, [event, ctx]), timeoutMs);
  if (settlement.status === "rejected") onFault(tool.name, event, settlement.reason);
  else if (settlement.status === "timed-out") {
    const what = `the onSession hook of tool "${tool.name}" (event "${event.reason}")`;
    onFault(tool.name, event, callbackTimeoutError(what, timeoutMs));
  }
}

/** Sends a lifecycle event to each tool in turn, in registration order, each with its deadline. */
export async function notifyTools(
  tools: CustomTool[],
  event: CustomToolSessionEvent,
  ctx: CustomToolContext,
  onFault: HookFaultHandler,
  timeoutMs: number,
): Promise<void> {
  for (const tool of tools) await notifyTool(tool, event, ctx, onFault, timeoutMs);
}
