import type { AgentToolResult } from "@tooldock/sdk";

/**
 * What a Tooldock tool's `execute` returns to the AI SDK: the session's result (text and
 * image blocks, `details`, `isError`) and the reminders of the actions that call staged.
 *
 * The AI SDK keeps it as the tool result's `output` (in `steps`, `onStepFinish`, UI message
 * parts); the model reads {@link toAISDKModelOutput} of it.
 */
export interface AISDKToolOutput extends AgentToolResult {
  /**
   * The session's `reminder` texts for actions this call staged (those still pending when it
   * ended), in push order; empty when it staged nothing.
   */
  reminders: string[];
}
