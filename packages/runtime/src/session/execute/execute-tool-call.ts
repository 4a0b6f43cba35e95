import type { AgentToolResult } from "@tooldock/sdk";
import type { PendingActionStore } from "../../pending/pending-action-store.js";
import type { PendingPolicy } from "../session-options.js";
import type { ToolContextSource } from "../tool-context.js";
import type { ToolRegistry } from "../tool-registry.js";
import { checkPendingPolicy } from "./check-pending-policy.js";
import { checkResult } from "./check-result.js";
import { lookupTool } from "./lookup-tool.js";
import { runTool } from "./run-tool.js";
import type { ToolCall } from "./tool-call.js";
import { validateArguments } from "./validate-arguments.js";

/** What the pipeline needs from its session. */
export interface ExecuteDependencies {
  registry: ToolRegistry;
  pending: PendingActionStore;
  pendingPolicy: PendingPolicy;
  /** Names offered to the model now, for the unknown-tool message. */
  activeToolNames(): string[];
  contextSource: ToolContextSource;
}

/**
 * The execute pipeline: lookup → pending policy → validate → run (with abort) → result
 * check. Every fault of the tool or the call ends as an `isError` result; it never throws.
 */
export async function executeToolCall(
  dependencies: ExecuteDependencies,
  call: ToolCall,
): Promise<AgentToolResult> {
  const lookup = lookupTool(dependencies.registry, call.name, dependencies.activeToolNames);
  if (!lookup.ok) return lookup.result;
  const policy = checkPendingPolicy(dependencies.pendingPolicy, dependencies.pending, call.name);
  if (!policy.ok) return policy.result;
  const validation = validateArguments(lookup.value, call.params);
  if (!validation.ok) return validation.result;
  const run = await runTool(lookup.value, validation.value, call, dependencies.contextSource);
  if (!run.ok) return run.result;
  return checkResult(call.name, run.value);
}
