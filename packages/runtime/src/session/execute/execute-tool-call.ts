import type { AgentToolResult } from "@tooldock/sdk";
import type { PendingActionStore } from "../../pending/pending-action-store.js";
import type { PendingPolicy } from "../session-options.js";
import type { RegisteredTool, ToolRegistry } from "../tool-registry.js";
import { checkPendingPolicy } from "./check-pending-policy.js";
import { checkStructuredContent } from "./check-structured-content.js";
import { copyParams } from "./copy-params.js";
import { dropNullOptionals } from "./drop-null-optionals.js";
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

/**
 * The execute pipeline: session open → lookup → pending policy → copy the arguments, drop
 * each `null` given for an optional property that does not accept it, and validate them →
 * run (abort, timeout, updates) → read the result once → check its
 * `structuredContent` against the `outputSchema` → truncate to `maxResultChars`.
 *
 * Returns the result at once when a step refuses the call (the tool does not run); otherwise
 * returns `undefined`, the tool is running, and `done` gets the call's result later (never
 * synchronously, exactly once). Every fault of the tool or the call ends as an `isError`
 * result; it never throws. When the tool ran, `slot.scope` is its call's scope (the actions
 * it staged). A callback rather than a promise: the session's `execute` makes the one
 * promise a call needs.
 */
export function startToolCall(
  dependencies: ExecuteDependencies,
  call: ToolCall,
  slot: ScopeSlot,
  done: (result: AgentToolResult) => void,
): AgentToolResult | undefined {
  const maxChars = dependencies.run.maxResultChars;
  if (dependencies.run.inFlight.closed)
    return truncateContent(failed(toolCallMessages.sessionDisposed(call.name)).result, maxChars);
  const entry = dependencies.registry.get(call.name);
  if (entry === undefined) {
    const unknown = toolCallMessages.unknownTool(call.name, dependencies.activeToolNames());
    return truncateContent(failed(unknown).result, maxChars);
  }
  const policy = checkPendingPolicy(dependencies.pendingPolicy, dependencies.pending, call.name);
  if (!policy.ok) return truncateContent(policy.result, maxChars);
  const params = dropNullOptionals(entry.schema.jsonSchema, copyParams(call.params));
  const validation = validateArguments(entry, params);
  if (!validation.ok) return truncateContent(validation.result, maxChars);
  const report: ReportFault = (fault, error) =>
    dependencies.onFault({
      type: "tool-call-fault",
      toolCallId: call.toolCallId,
      name: call.name,
      fault,
      ...(error === undefined ? {} : { error }),
    });
  runTool(entry, validation.value, call, dependencies.run, report, slot, (run) => {
    let result: AgentToolResult;
    try {
      result = finishToolCall(entry, report, call, run, maxChars);
    } catch (error) {
      // Not reached by any known fault: every step contains its own. Kept so a call always answers.
      result = failed(toolCallMessages.internalFault(call.name, error)).result;
    }
    done(result);
  });
  return undefined;
}

/** The pipeline's second half, once the tool settled or was stopped. */
function finishToolCall(
  entry: RegisteredTool,
  report: ReportFault,
  call: ToolCall,
  run: StepOutcome<unknown>,
  maxChars: number,
): AgentToolResult {
  if (!run.ok) return truncateContent(run.result, maxChars);
  const reading = readResult(run.value);
  if (!reading.ok)
    return truncateContent(
      failed(toolCallMessages.malformedResult(call.name, reading.problem)).result,
      maxChars,
    );
  if (reading.detailsError) report("details-dropped", reading.detailsError.error);
  if (entry.outputSchema === undefined) return truncateContent(reading.result, maxChars);
  const checked = checkStructuredContent(entry, reading.result);
  return truncateContent(checked.ok ? checked.value : checked.result, maxChars);
}
