import { describe, expect, it } from "vitest";
import * as runtime from "./index.js";

describe("@tooldock/runtime public surface", () => {
  it("exports exactly these runtime values (types are checked by tsc)", () => {
    expect(Object.keys(runtime).sort()).toEqual([
      "DEFAULT_SOURCE_TOOL_NAME",
      "LEGACY_EXECUTE_ORDER_WARNING",
      "NOTHING_PENDING_MESSAGE",
      "OPENAI_STRICT_UNSUPPORTED",
      "PendingActionStore",
      "PostgresJournal",
      "RESOLVE_TOOL_NAME",
      "RESOLVE_TOOL_ORIGIN",
      "Session",
      "SqliteJournal",
      "THIS_PROCESS",
      "TOOL_ACCESSOR_WARNING",
      "TOOL_NAME_PATTERN",
      "asSchema",
      "blockText",
      "blocksText",
      "checkPrivateFolder",
      "checkPrivateFolderSync",
      "containStrayFaults",
      "createResolveTool",
      "declaresCurrentExecuteOrder",
      "defaultUserFolder",
      "ensurePrivateFolder",
      "formatSchemaIssue",
      "isLegacyExecuteOrder",
      "legacyExecuteOrderWarning",
      "openAIStrictProblems",
      "openPostgresJournal",
      "openSqliteJournal",
      "reportStrayFault",
      "resultBlocks",
      "runningToolCall",
      "snapshotTool",
      "toAnthropicRequest",
      "toAnthropicToolResult",
      "toGeminiFunctionResponse",
      "toGeminiRequest",
      "toOpenAIRequest",
      "toOpenAIResponsesRequest",
      "toOpenAIResponsesToolOutput",
      "toOpenAIToolMessage",
      "toProviderSchema",
      "toolAccessorWarning",
      "trackToolCalls",
      "truncateContent",
      "validateTool",
      "validateToolName",
    ]);
  });

  it("pins the exact strings of docs/contract.md §3", () => {
    expect(runtime.RESOLVE_TOOL_NAME).toBe("resolve");
    expect(runtime.DEFAULT_SOURCE_TOOL_NAME).toBe("custom_tool");
    expect(runtime.NOTHING_PENDING_MESSAGE).toBe(
      "No pending action to resolve. Nothing to apply or discard.",
    );
    expect(runtime.TOOL_NAME_PATTERN.source).toBe("^[A-Za-z_][A-Za-z0-9_-]{0,63}$");
  });
});
