import { runningToolCall } from "@tooldock/runtime";
import type { EventBus, ToolMessage } from "@tooldock/sdk";

/** The channel of `host.events` on which `pi.sendMessage` delivers messages to the host. */
export const TOOL_MESSAGE_CHANNEL = "tooldock:message";

/** What a host receives on {@link TOOL_MESSAGE_CHANNEL}. */
export interface ToolMessageEvent {
  /** The message as the tool sent it. */
  message: ToolMessage;
  /** The tool's options (pi's `triggerTurn`, `deliverAs`), as given. */
  options?: unknown;
  /** The session, call and tool that sent it, when a tool call was running (also after it ended). */
  sessionId?: string;
  toolCallId?: string;
  toolName?: string;
}

/**
 * `pi.sendMessage`: emits the message on the host's bus, on {@link TOOL_MESSAGE_CHANNEL},
 * with the session and call that sent it. The host decides what to do with it.
 */
export function createSendMessage(events: EventBus): (message: ToolMessage, options?: unknown) => void {
  return (message, options) => {
    const call = runningToolCall();
    const event: ToolMessageEvent = {
      message,
      ...(options === undefined ? {} : { options }),
      ...(call === undefined
        ? {}
        : { sessionId: call.sessionId, toolCallId: call.toolCallId, toolName: call.toolName }),
    };
    events.emit(TOOL_MESSAGE_CHANNEL, event);
  };
}
