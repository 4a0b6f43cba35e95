import { RESOLVE_TOOL_NAME, type Session } from "@tooldock/runtime";
import type { AgentToolResult } from "@tooldock/sdk";

/** One resolution: the label it took off the stack and the `resolve` result. */
export interface Resolution {
  label: string;
  result: AgentToolResult;
}

/**
 * Calls `resolve` until the stack is empty, in LIFO order (the top first). Stops at the first
 * error result: a failed apply puts the action back on top, so going on would retry it forever.
 */
export async function resolveAll(
  session: Session,
  action: "apply" | "discard",
  reason: string,
): Promise<Resolution[]> {
  const resolutions: Resolution[] = [];
  while (session.pending.hasPending) {
    const label = session.pending.peek()?.label ?? "";
    const result = await session.execute({
      toolCallId: `resolve-${resolutions.length + 1}`,
      name: RESOLVE_TOOL_NAME,
      params: { action, reason },
    });
    resolutions.push({ label, result });
    if (result.isError) break;
  }
  return resolutions;
}
