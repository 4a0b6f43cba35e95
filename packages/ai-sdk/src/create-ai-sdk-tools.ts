import { asSchema, type Session } from "@tooldock/runtime";
import type { AgentToolResult, CustomTool } from "@tooldock/sdk";
import { type JSONSchema7, jsonSchema, type Tool, tool } from "ai";
import type { AISDKToolOutput } from "./ai-sdk-tool-output.js";
import { type AISDKStepSteering, sessionPrepareStep } from "./prepare-step.js";
import { runToolCall } from "./run-tool-call.js";
import { toAISDKModelOutput } from "./to-model-output.js";

/** One Tooldock tool as an AI SDK tool: any JSON input, a {@link AISDKToolOutput} output. */
export type AISDKTool = Tool<unknown, AISDKToolOutput>;

/** The tool set {@link createAISDKTools} returns: one {@link AISDKTool} per session tool, by name. */
export type AISDKToolSet = Record<string, AISDKTool>;

/** Options of {@link createAISDKTools}. */
export interface CreateAISDKToolsOptions {
  /**
   * Receives the partial results a tool sends while it runs (progress, streamed output), with
   * the AI SDK's `toolCallId`. They are coalesced by the session (`updateIntervalMs`) and never
   * reach the model. Default: none.
   */
  onUpdate?: (toolCallId: string, partial: AgentToolResult) => void;
}

/** What {@link createAISDKTools} returns: pass both to `generateText` / `streamText`. */
export interface AISDKTools {
  /** Every tool the session had when {@link createAISDKTools} ran, `resolve` and hidden ones included. */
  tools: AISDKToolSet;
  /** Offers the session's active tools and tool choice for each step (`resolve` while pending). */
  prepareStep: () => AISDKStepSteering<AISDKToolSet>;
}

/**
 * A session's tools as a Vercel AI SDK (`ai` 7) `ToolSet`, with the `prepareStep` that steers
 * each step.
 *
 * - `tools` holds every tool the session has registered now, `resolve` and hidden tools
 *   included, so the set never changes during a loop. It is a snapshot: call
 *   `createAISDKTools` again after registering more tools. Each tool's `execute` runs
 *   `session.execute` with the AI SDK's `toolCallId` and `abortSignal`, so the session
 *   validates the input, applies its pending policy, and turns every fault into an `isError`
 *   result (the AI SDK loop never sees a throw).
 * - The model reads each result through `toModelOutput` ({@link toAISDKModelOutput}): text,
 *   images as `file` parts, `isError` as `error-text`, and the reminder of each action the
 *   call staged appended to that call's output.
 * - `prepareStep` returns `{ activeTools, toolChoice }` from `session.activeTools()` and
 *   `session.toolChoice()`, limited to the tools of the set: while an action is pending,
 *   `resolve` is active and `toolChoice` is `{ type: "tool", toolName: "resolve" }`.
 *
 * @example
 * ```ts
 * const { tools, prepareStep } = createAISDKTools(session);
 * const result = await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(20), prompt });
 * ```
 */
export function createAISDKTools(session: Session, options: CreateAISDKToolsOptions = {}): AISDKTools {
  // `fromEntries` defines own properties, so a tool named `__proto__` is a tool, not a prototype.
  const tools: AISDKToolSet = Object.fromEntries(
    session.tools().map((sessionTool) => [sessionTool.name, toAISDKTool(session, sessionTool, options)]),
  );
  return { tools, prepareStep: sessionPrepareStep(session, tools) };
}

function toAISDKTool(session: Session, sessionTool: CustomTool, options: CreateAISDKToolsOptions): AISDKTool {
  const { name } = sessionTool;
  // The session's own JSON Schema (cached per schema object). No `validate`: the session
  // validates, so invalid input reaches the model as its "Invalid arguments" result.
  const inputSchema = jsonSchema<unknown>(asSchema(sessionTool.parameters).jsonSchema as JSONSchema7);
  return tool({
    description: sessionTool.description,
    inputSchema,
    execute: (input, { toolCallId, abortSignal }) =>
      runToolCall(session, {
        toolCallId,
        name,
        input,
        abortSignal,
        onUpdate: updateListener(options.onUpdate, toolCallId),
      }),
    toModelOutput: ({ output }) => toAISDKModelOutput(output),
  });
}

function updateListener(
  onUpdate: CreateAISDKToolsOptions["onUpdate"],
  toolCallId: string,
): ((partial: AgentToolResult) => void) | undefined {
  return onUpdate === undefined ? undefined : (partial) => onUpdate(toolCallId, partial);
}
