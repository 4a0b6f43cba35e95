import type { AgentToolResult } from "@tooldock/sdk";
import type { PendingActionStore } from "../../pending/pending-action-store.js";
import type { PendingPolicy } from "../session-options.js";
import type { RegisteredTool, ToolRegistry } from "../tool-registry.js";
import { checkPendingPolicy } from "./check-pending-policy.js";
import { checkStructuredContent } from "./check-structured-content.js";
import { copyParams } from "./copy-params.js";
import { lookupTool } from "./lookup-tool.js";
import { readResult } from "./read-result.js";
import { type RunToolOptions, runTool } from "./run-tool.js";
import { failed, type StepOutcome, type ToolCall } from "./tool-call.js";
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

/** A call {@link startToolCall} began: the tool runs; give what it settled with to {@link finishToolCall}. */
export interface StartedToolCall {
  entry: RegisteredTool;
  report: ReportFault;
  running: Promise<StepOutcome<unknown>>;
}

/**
 * The execute pipeline, first half: session open → lookup → pending policy → copy and
 * validate the arguments → run (abort, timeout, updates). Answers at once (a result) when a
 * step refuses the call; otherwise the tool is running and the caller awaits `running`, then
 * calls {@link finishToolCall}. Two halves rather than one async function, so a call costs
 * one promise and one turn of the microtask queue less (the session awaits the run itself).
 * Every fault of the tool or the call ends as an `isError` result; it never throws. When the
 * tool ran, `slot.scope` is its call's scope (the actions it staged).
 */
export function startToolCall(
  dependencies: ExecuteDependencies,
  call: ToolCall,
  slot: ScopeSlot,
): AgentToolResult | StartedToolCall {
  const maxChars = dependencies.run.maxResultChars;
  if (dependencies.run.inFlight.closed)
    return truncateContent(failed(toolCallMessages.sessionDisposed(call.name)).result, maxChars);
  const lookup = lookupTool(dependencies.registry, call.name, dependencies.activeToolNames);
  if (!lookup.ok) return truncateContent(lookup.result, maxChars);
  const policy = checkPendingPolicy(dependencies.pendingPolicy, dependencies.pending, call.name);
  if (!policy.ok) return truncateContent(policy.result, maxChars);
  const entry = lookup.value;
  const validation = validateArguments(entry, copyParams(call.params));
  if (!validation.ok) return truncateContent(validation.result, maxChars);
  const report: ReportFault = (fault, error) =>
    dependencies.onFault({
      type: "tool-call-fault",
      toolCallId: call.toolCallId,
      name: call.name,
      fault,
      ...(error === undefined ? {} : { error }),
    });
  return { entry, report, running: runTool(entry, validation.value, call, dependencies.run, report, slot) };
}

/**
 * The execute pipeline, second half: read the result once → check its `structuredContent`
 * against the `outputSchema` → truncate to `maxResultChars`.
 */
export function finishToolCall(
  dependencies: ExecuteDependencies,
  started: StartedToolCall,
  call: ToolCall,
  run: StepOutcome<unknown>,
): AgentToolResult {
  const maxChars = dependencies.run.maxResultChars;
  if (!run.ok) return truncateContent(run.result, maxChars);
  const reading = readResult(run.value);
  if (!reading.ok)
    return truncateContent(
      failed(toolCallMessages.malformedResult(call.name, reading.problem)).result,
      maxChars,
    );
  if (reading.detailsError) started.report("details-dropped", reading.detailsError.error);
  const { entry } = started;
  if (entry.outputSchema === undefined) return truncateContent(reading.result, maxChars);
  const checked = checkStructuredContent(entry, reading.result);
  return truncateContent(checked.ok ? checked.value : checked.result, maxChars);
}
