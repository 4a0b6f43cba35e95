import type { PendingActionHandlers } from "./pending-action.js";
import type { InferParams, ToolParameters } from "./schema.js";
import type { CustomToolSessionEvent } from "./session-event.js";
import type { ToolAnnotations } from "./tool-annotations.js";
import type { CustomToolAPI } from "./tool-api.js";
import type { CustomToolContext } from "./tool-context.js";
import type { AgentToolResult } from "./tool-result.js";

/** Receives partial results while a tool runs (progress, streamed output). */
export type ToolUpdateCallback<TDetails = unknown> = (partial: AgentToolResult<TDetails>) => void;

/**
 * A model-callable function.
 *
 * `TParams` is the parameter schema (TypeBox or zod v4); `params` is inferred from it.
 */
export interface CustomTool<TParams = ToolParameters, TDetails = unknown> {
  /** `/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/`, unique in a session. */
  name: string;
  /** Short human title. */
  label: string;
  /** What the model reads to decide when to call the tool. */
  description: string;
  /** A TypeBox or zod v4 schema whose top level is an object. */
  parameters: TParams;
  /** Not offered to the model unless the host asks for it. */
  hidden?: boolean;
  /** Says the tool may stage pending actions. */
  deferrable?: boolean;
  /**
   * Hints for clients (MCP's `ToolAnnotations`): read-only, destructive, idempotent, open
   * world, and a title. Booleans only (a title a string); an unknown key is dropped with a
   * `W_UNKNOWN_ANNOTATION` warning.
   */
  annotations?: ToolAnnotations;
  /**
   * The shape of the `structuredContent` the tool returns (TypeBox or zod v4, the top level
   * an object). Declared, every result that is not an error must carry `structuredContent`
   * that matches it: the session checks it before the result leaves, and `tooldock mcp`
   * lists it as the tool's `outputSchema`.
   */
  outputSchema?: ToolParameters;
  /**
   * The handlers of the durable actions this tool stages (`ctx.pushPendingAction` with a
   * `handler` and a JSON `payload`), by name. Any process that loaded the tool can apply such
   * an action, so a session opened from a durable store resolves it after a restart.
   */
  actions?: PendingActionHandlers;
  execute(
    toolCallId: string,
    params: InferParams<TParams>,
    onUpdate: ToolUpdateCallback<TDetails> | undefined,
    ctx: CustomToolContext,
    signal?: AbortSignal,
  ): Promise<AgentToolResult<TDetails>>;
  /** Session lifecycle: `start` when registered in a session, `shutdown` on dispose. */
  onSession?(event: CustomToolSessionEvent, ctx: CustomToolContext): void | Promise<void>;
}

/** What a tool module default-exports: receives the host API, returns one tool or several. */
export type CustomToolFactory = (
  pi: CustomToolAPI,
) => CustomTool | CustomTool[] | Promise<CustomTool | CustomTool[]>;
