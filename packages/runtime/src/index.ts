// Everything exported here is public API. Keep this list curated; never `export *`.
// The surface test (index.test.ts) fails when this list changes by accident.

export {
  type JournalMove,
  type JournalRecord,
  type JournalState,
  type JournalTransition,
  type PendingActionJournal,
  type ProcessIdentity,
  THIS_PROCESS,
  type TransitionKind,
} from "./pending/journal/pending-journal.js";
export {
  openPostgresJournal,
  PostgresJournal,
  type PostgresJournalOptions,
  type PostgresQueryable,
} from "./pending/journal/postgres-journal.js";
export {
  openSqliteJournal,
  type SqliteDatabase,
  SqliteJournal,
  type SqliteJournalOptions,
} from "./pending/journal/sqlite-journal.js";
// Pending actions and the hidden `resolve` tool (docs/contract.md §3).
export type {
  PendingActionEvent,
  PendingActionListener,
  PendingActionRecord,
} from "./pending/pending-action-record.js";
export {
  type ClearOptions,
  DEFAULT_SOURCE_TOOL_NAME,
  PendingActionStore,
  type PendingActionStoreOptions,
  type PushOptions,
} from "./pending/pending-action-store.js";
export type { ResolveDetails } from "./pending/resolve-details.js";
export { NOTHING_PENDING_MESSAGE } from "./pending/resolve-messages.js";
export type { ResolveParams } from "./pending/resolve-parameters.js";
export { createResolveTool, RESOLVE_TOOL_NAME, type ResolveToolOptions } from "./pending/resolve-tool.js";
// Schemas: TypeBox or zod v4 into JSON Schema and a validator.
export { asSchema } from "./schema/as-schema.js";
export { TOOL_NAME_PATTERN } from "./schema/tool-name.js";
export {
  formatSchemaIssue,
  type SchemaIssue,
  type SchemaValidation,
  type ToolSchema,
} from "./schema/tool-schema.js";
// Sessions (docs/contract.md §4).
export type { ConversationSource } from "./session/conversation-source.js";
export {
  containStrayFaults,
  reportStrayFault,
  type StrayFault,
} from "./session/execute/stray-faults.js";
export type { ToolCall } from "./session/execute/tool-call.js";
export type { ToolCallError, ToolCallErrorLocation } from "./session/execute/tool-call-error.js";
export type { ToolCallFault, ToolCallFaultEvent } from "./session/execute/tool-call-fault.js";
export { type RunningToolCall, runningToolCall, trackToolCalls } from "./session/execute/tool-call-scope.js";
/** Text cut at `maxResultChars` with the session's `… [truncated N characters]` ending (hosts adding text). */
export { truncateContent } from "./session/execute/truncate-content.js";
export {
  declaresCurrentExecuteOrder,
  isLegacyExecuteOrder,
  LEGACY_EXECUTE_ORDER_WARNING,
  legacyExecuteOrderWarning,
} from "./session/execute-order.js";
export { RESOLVE_TOOL_ORIGIN, Session } from "./session/session.js";
export type { SessionEvent, SessionListener } from "./session/session-events.js";
export type {
  IsolatedActionsInProcess,
  PendingPolicy,
  SessionOptions,
} from "./session/session-options.js";
// Tool records: every field of a tool read once, into a frozen record (loader and session).
export {
  snapshotTool,
  TOOL_ACCESSOR_WARNING,
  type ToolField,
  type ToolSnapshot,
  toolAccessorWarning,
} from "./session/snapshot-tool.js";
export type { ToolChoice } from "./session/tool-choice.js";
export type { SessionToolContext } from "./session/tool-context.js";
// The one check of a tool (loader, Session.register, the CLI's --isolate): a frozen record or diagnostics.
export {
  type ToolValidation,
  type ValidateToolOptions,
  validateTool,
  validateToolName,
} from "./session/validate-tool.js";
// Provider adapters: tools and tool choice as each API's request fields, tool results as its result shapes.
export {
  type AnthropicRequest,
  type AnthropicTool,
  type AnthropicToolChoice,
  toAnthropicRequest,
} from "./steering/anthropic-request.js";
export {
  type AnthropicImageMediaType,
  type AnthropicToolResult,
  type AnthropicToolResultBlock,
  toAnthropicToolResult,
} from "./steering/anthropic-tool-result.js";
export {
  type GeminiFunctionResponsePart,
  toGeminiFunctionResponse,
} from "./steering/gemini-function-response.js";
export {
  type GeminiFunctionCallingConfig,
  type GeminiFunctionDeclaration,
  type GeminiMode,
  type GeminiModes,
  type GeminiRequest,
  toGeminiRequest,
} from "./steering/gemini-request.js";
export {
  type OpenAIRequest,
  type OpenAITool,
  type OpenAIToolChoice,
  toOpenAIRequest,
} from "./steering/openai-request.js";
export {
  type OpenAIResponsesRequest,
  type OpenAIResponsesTool,
  type OpenAIResponsesToolChoice,
  toOpenAIResponsesRequest,
} from "./steering/openai-responses-request.js";
export {
  type OpenAIResponsesOutputPart,
  type OpenAIResponsesToolOutput,
  type OpenAIToolMessage,
  toOpenAIResponsesToolOutput,
  toOpenAIToolMessage,
} from "./steering/openai-tool-result.js";
export {
  OPENAI_STRICT_UNSUPPORTED,
  openAIStrictProblems,
  type ProviderSchema,
  type SchemaProvider,
  toProviderSchema,
} from "./steering/provider-schema.js";
/** A result's text and image blocks, read defensively, and their text with each image as a note (for adapters). */
export { blocksText, blockText, resultBlocks } from "./steering/result-blocks.js";
export type { ToolDefinition } from "./steering/tool-definitions.js";
// Private per-user folders (the loader's compile cache, ast_edit's journals).
export {
  checkPrivateFolder,
  checkPrivateFolderSync,
  defaultUserFolder,
  ensurePrivateFolder,
  type PrivateFolderCheck,
} from "./util/private-folder.js";
