import type { AgentToolResult, CustomToolSessionEvent } from "@tooldock/sdk";
import type { PendingActionEvent, PendingActionRecord } from "../pending/pending-action-record.js";
import { SafeEmitter } from "../util/safe-emitter.js";
import type { ToolCallError } from "./execute/tool-call-error.js";
import type { ToolCallFaultEvent } from "./execute/tool-call-fault.js";

/**
 * What {@link Session.subscribe} listeners receive: the session's own events and every event
 * of its pending store, forwarded.
 *
 * - `tool-call-start` / `tool-call-end`: around every `execute`, whatever the outcome. When the
 *   tool's `execute` threw or rejected, `tool-call-end` carries `error` ({@link ToolCallError}:
 *   message, name, code, the source-mapped stack and the tool's own `location`), JSON-safe.
 * - `reminder`: for every push, `text` for the host to inject into the conversation. An action
 *   a call staged (`ctx.pushPendingAction` or `pi.pushPendingAction`) is reminded after that
 *   call's `tool-call-end` (if still pending), with its `toolCallId`, so a host appends it
 *   after the tool result; any other push (`session.pending.push`) is reminded at once,
 *   without `toolCallId`.
 * - `tool-hook-failed`: a tool's `onSession` threw; the session carried on.
 * - `tool-warning`: `register` accepted a tool but warns about it (`code` `W_TOOL_ACCESSOR`:
 *   its fields were read through getters or a Proxy, once; the tool keeps those values;
 *   `W_LEGACY_EXECUTE_ORDER`: pi's older `execute` order, adapted; `W_UNKNOWN_ANNOTATION`:
 *   `annotations` keys that are not MCP's, dropped).
 * - `tool-unregistered`: `unregister` removed the tool of that name (and origin).
 * - `tool-call-fault`: a fault the session contained without changing a call's result (a
 *   late settle, a refused late push, dropped details or updates, a failing `onUpdate`).
 */
export type SessionEvent =
  | { type: "tool-call-start"; toolCallId: string; name: string; params: unknown }
  | {
      type: "tool-call-end";
      toolCallId: string;
      name: string;
      result: AgentToolResult;
      error?: ToolCallError;
    }
  | { type: "reminder"; text: string; record: PendingActionRecord; toolCallId?: string }
  | { type: "tool-hook-failed"; toolName: string; event: CustomToolSessionEvent; error: unknown }
  | {
      type: "tool-warning";
      code: `W_${string}`;
      toolName: string;
      origin: string;
      message: string;
      hint: string;
    }
  | { type: "tool-unregistered"; toolName: string; origin: string }
  | ToolCallFaultEvent
  | PendingActionEvent;

/** Receives every {@link SessionEvent}. */
export type SessionListener = (event: SessionEvent) => void;

/** The session's listener set: listeners cannot break each other or the session. */
export class SessionEmitter extends SafeEmitter<SessionEvent> {}
