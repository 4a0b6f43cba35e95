// Everything exported here is public API. Keep this list curated; the surface test pins it.
export { defineTool, defineToolFactory } from "./define-tool.js";
export { durableAction } from "./durable-action.js";
export type {
  Diagnostic,
  DiagnosticCode,
  DiagnosticErrorCode,
  DiagnosticLocation,
  DiagnosticWarningCode,
} from "./errors/error-codes.js";
export { DIAGNOSTIC_ERROR_CODES } from "./errors/error-codes.js";
export type { TooldockErrorCode, TooldockErrorOptions } from "./errors/tooldock-error.js";
export { TooldockError } from "./errors/tooldock-error.js";
export { errorResult, textResult } from "./results.js";
export type { ConversationEntry, ToolModel, ToolSessionManager } from "./types/conversation.js";
export type { CustomTool, CustomToolFactory, ToolUpdateCallback } from "./types/custom-tool.js";
export type { EventBus, EventHandler, ToolMessage } from "./types/event-bus.js";
export type {
  CustomToolDurableAction,
  CustomToolPendingAction,
  PayloadOf,
  PendingActionHandler,
  PendingActionHandlerContext,
  PendingActionHandlers,
} from "./types/pending-action.js";
export type { InferParams, ToolParameters } from "./types/schema.js";
export type { CustomToolSessionDetails, CustomToolSessionEvent } from "./types/session-event.js";
export type { ToolAnnotations } from "./types/tool-annotations.js";
export type {
  CustomToolAPI,
  ExecOptions,
  ExecResult,
  Logger,
  ToolLogger,
  UIContext,
} from "./types/tool-api.js";
export type { CustomToolContext } from "./types/tool-context.js";
export type {
  AgentToolResult,
  AudioContent,
  EmbeddedResourceContent,
  ImageContent,
  ResourceContents,
  ResourceLinkContent,
  TextContent,
  ToolResultContent,
} from "./types/tool-result.js";
