import type { CustomTool, CustomToolContext, CustomToolSessionEvent } from "@tooldock/sdk";

/** Reports a hook that threw or rejected. */
export type HookFaultHandler = (toolName: string, event: CustomToolSessionEvent, error: unknown) => void;

/**
 * Sends a lifecycle event to one tool's `onSession`. Never throws: a fault goes to `onFault`
 * and the session carries on.
 */
export async function notifyTool(
  tool: CustomTool,
  event: CustomToolSessionEvent,
  ctx: CustomToolContext,
  onFault: HookFaultHandler,
): Promise<void> {
  if (tool.onSession === undefined) return;
  try {
    await tool.onSession(event, ctx);
  } catch (error) {
    onFault(tool.name, event, error);
  }
}

/** Sends a lifecycle event to each tool in turn, in registration order. */
export async function notifyTools(
  tools: CustomTool[],
  event: CustomToolSessionEvent,
  ctx: CustomToolContext,
  onFault: HookFaultHandler,
): Promise<void> {
  for (const tool of tools) await notifyTool(tool, event, ctx, onFault);
}
