import type { Session } from "@tooldock/runtime";
import type { AgentToolResult } from "@tooldock/sdk";
import type { AISDKToolOutput } from "./ai-sdk-tool-output.js";

/** One call as the AI SDK hands it to a tool's `execute`. */
export interface AISDKToolCall {
  toolCallId: string;
  name: string;
  input: unknown;
  abortSignal: AbortSignal | undefined;
  onUpdate: ((partial: AgentToolResult) => void) | undefined;
}

/**
 * Runs one call through `session.execute` (arguments validated by the session, pending policy
 * applied, faults as `isError` results; it never rejects) and keeps the `reminder` events the
 * session emits for actions this call staged. The session emits those after the call's
 * `tool-call-end` and before `execute` resolves, with the call's `toolCallId`, so a listener
 * held for the length of the call sees them all; it is removed when the call ends, whatever
 * the outcome.
 */
export async function runToolCall(session: Session, call: AISDKToolCall): Promise<AISDKToolOutput> {
  const { toolCallId, name, input, abortSignal, onUpdate } = call;
  const reminders: string[] = [];
  const unsubscribe = session.subscribe((event) => {
    if (event.type === "reminder" && event.toolCallId === toolCallId) reminders.push(event.text);
  });
  try {
    const result = await session.execute({ toolCallId, name, params: input, signal: abortSignal, onUpdate });
    return { ...result, reminders };
  } finally {
    unsubscribe();
  }
}
