import { formatDiagnostic } from "@tooldock/loader";
import { asSchema, type PendingActionRecord, RESOLVE_TOOL_NAME, type Session } from "@tooldock/runtime";
import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { annotationsOf } from "../mcp/tool-definition.js";
import { displayPath } from "../report/diagnostic-text.js";
import type { DiagnosticView, InspectState, PendingView, ToolView } from "./inspect-protocol.js";

/** What {@link buildInspectState} reads. */
export interface InspectStateSources {
  version: string;
  session: Session;
  /** The diagnostics of the latest load. */
  diagnostics: readonly Diagnostic[];
  /** The last failed apply of each action still pending, by action id. */
  applyFailures: ReadonlyMap<string, { message: string; at: number }>;
  /** The ids of the calls still running. */
  running: Iterable<string>;
}

/** The whole state of an inspect server, as `GET /api/state` and the `state` event carry it. */
export function buildInspectState(sources: InspectStateSources): InspectState {
  const { session } = sources;
  const choice = session.toolChoice();
  return {
    version: sources.version,
    cwd: session.cwd,
    tools: session
      .tools()
      .filter((tool) => tool.name !== RESOLVE_TOOL_NAME)
      .map((tool) => toolView(tool, session)),
    diagnostics: sources.diagnostics.map((diagnostic) => diagnosticView(diagnostic, session.cwd)),
    pending: session.pending.list().map((record) => pendingView(record, sources.applyFailures)),
    toolChoice: typeof choice === "string" ? choice : choice.name,
    running: [...sources.running],
  };
}

/** A registered tool as the page lists it; `resolve` is left to the pending panel. */
export function toolView(tool: CustomTool, session: Session): ToolView {
  const origin = session.originOf(tool.name) ?? "the host";
  // The session registers only tools whose schemas convert; the fallbacks are a safety net.
  const parameters = jsonSchemaOf(() => asSchema(tool.parameters).jsonSchema) ?? { type: "object" };
  const outputSchema =
    tool.outputSchema === undefined
      ? undefined
      : (jsonSchemaOf(() => asSchema(tool.outputSchema, "outputSchema").jsonSchema) ?? { type: "object" });
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    origin: displayPath(origin, session.cwd),
    hidden: tool.hidden === true,
    deferrable: tool.deferrable === true,
    annotations: annotationsOf(tool),
    parameters,
    ...(outputSchema === undefined ? {} : { outputSchema }),
  };
}

function jsonSchemaOf(convert: () => Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return convert();
  } catch {
    return undefined;
  }
}

/** A diagnostic with the text `tooldock list` prints for it. */
export function diagnosticView(diagnostic: Diagnostic, cwd: string): DiagnosticView {
  return { diagnostic, text: formatDiagnostic(diagnostic, { cwd }) };
}

function pendingView(
  record: PendingActionRecord,
  failures: ReadonlyMap<string, { message: string; at: number }>,
): PendingView {
  const failure = failures.get(record.id);
  return {
    id: record.id,
    label: record.label,
    sourceToolName: record.sourceToolName,
    createdAt: record.createdAt,
    details: record.details,
    ...(failure === undefined ? {} : { applyFailure: failure }),
  };
}
