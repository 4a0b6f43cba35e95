import type { AgentToolResult } from "@tooldock/sdk";
import type { PendingActionStore } from "../../pending/pending-action-store.js";
import type { PendingPolicy } from "../session-options.js";
import type { ToolRegistry } from "../tool-registry.js";
import { checkPendingPolicy } from "./check-pending-policy.js";
import { checkStructuredContent } from "./check-structured-content.js";
import { copyParams } from "./copy-params.js";
import { lookupTool } from "./lookup-tool.js";
import { readResult } from "./read-result.js";
import { type RunToolOptions, runTool } from "./run-tool.js";
import { failed, type ToolCall } from "./tool-call.js";
import type { ReportFault, ToolCallFaultEvent } from "./tool-call-fault.js";
import { toolCallMessages } from "./tool-call-messages.js";
import type { ScopeSlot } from "./tool-call-scope.js";
import { truncateContent } from "./truncate-content.js";
import { validateArguments } from "./validate-arguments.js";

/** What the pipeline needs from its session. */
export interface ExecuteDependencies {
  registry: ToolRegistry;
  pending: PendingActionStore;
  pendingPolicy: PendingPolicy;
  /** Names offered to the model now, for the unknown-tool message. */
  activeToolNames(): string[];
  /** Context, calls in flight and limits of a run (`maxResultChars` also bounds the result). */
  run: RunToolOptions;
  /** Receives the faults the pipeline contained; must not throw. */
  onFault(event: ToolCallFaultEvent): void;
}

/**
 * The execute pipeline: session open → lookup → pending policy → copy and validate the
 * arguments → run (abort, timeout, updates) → read the result → check its
 * `structuredContent` against the `outputSchema` → truncate. Every fault of
 * the tool or the call ends as an `isError` result; it never throws. When the tool ran,
 * `slot.scope` is its call's scope (the actions it staged).
 */
export function executeToolCall(
  dependencies: ExecuteDependencies,
  call: ToolCall,
  slot: ScopeSlot = { scope: undefined },
): Promise<AgentToolResult> {
  const report: ReportFault = (fault, error) =>
    dependencies.onFault({
      type: "tool-call-fault",
      toolCallId: call.toolCallId,
      name: call.name,
      fault,
      ...(error === undefined ? {} : { error }),
    });
  return runSteps(dependencies, call, report, slot);
}

/** The steps; every result they answer with is cut to `maxResultChars` (`truncateContent`). */
async function runSteps(
  dependencies: ExecuteDependencies,
  call: ToolCall,
  report: ReportFault,
  slot: ScopeSlot,
): Promise<AgentToolResult> {
  const maxChars = dependencies.run.maxResultChars;
  if (dependencies.run.inFlight.closed)
    return truncateContent(failed(toolCallMessages.sessionDisposed(call.name)).result, maxChars);
  const lookup = lookupTool(dependencies.registry, call.name, dependencies.activeToolNames);
  if (!lookup.ok) return truncateContent(lookup.result, maxChars);
  const policy = checkPendingPolicy(dependencies.pendingPolicy, dependencies.pending, call.name);
  if (!policy.ok) return truncateContent(policy.result, maxChars);
  const validation = validateArguments(lookup.value, copyParams(call.params));
  if (!validation.ok) return truncateContent(validation.result, maxChars);
  const run = await runTool(lookup.value, validation.value, call, dependencies.run, report, slot);
  if (!run.ok) return truncateContent(run.result, maxChars);
  const reading = readResult(run.value);
  if (!reading.ok)
    return truncateContent(
      failed(toolCallMessages.malformedResult(call.name, reading.problem)).result,
      maxChars,
    );
  if (reading.detailsError) report("details-dropped", reading.detailsError.error);
  if (lookup.value.outputSchema === undefined) return truncateContent(reading.result, maxChars);
  const checked = checkStructuredContent(lookup.value, reading.result);
  return truncateContent(checked.ok ? checked.value : checked.result, maxChars);
}
