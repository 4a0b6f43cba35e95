// Everything exported here is public API. Keep this list curated; never `export *`.

export type {
  PendingActionEvent,
  PendingActionListener,
  PendingActionRecord,
} from "./pending/pending-action-record.js";
/** @see {@link PendingActionStore} */
export {
  DEFAULT_SOURCE_TOOL_NAME,
  PendingActionStore,
  type PendingActionStoreOptions,
} from "./pending/pending-action-store.js";
export type { ResolveDetails } from "./pending/resolve-details.js";
export { NOTHING_PENDING_MESSAGE } from "./pending/resolve-messages.js";
export type { ResolveParams } from "./pending/resolve-parameters.js";
export { createResolveTool, RESOLVE_TOOL_NAME } from "./pending/resolve-tool.js";
export { asSchema } from "./schema/as-schema.js";
export { TOOL_NAME_PATTERN } from "./schema/tool-name.js";
export {
  formatSchemaIssue,
  type SchemaIssue,
  type SchemaValidation,
  type ToolSchema,
} from "./schema/tool-schema.js";
