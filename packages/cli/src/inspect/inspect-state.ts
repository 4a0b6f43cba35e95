import { formatDiagnostic } from "@tooldock/loader";
import {
  asSchema,
  type JournalTransition,
  type PendingActionRecord,
  RESOLVE_TOOL_NAME,
  type Session,
} from "@tooldock/runtime";
import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { annotationsOf } from "../mcp/tool-definition.js";
import { displayPath } from "../report/diagnostic-text.js";
import type {
  DiagnosticView,
  InspectState,
  PendingView,
  StoreView,
  ToolView,
  TransitionView,
} from "./inspect-protocol.js";

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
  /** With `--store`: the store, and each action's steps as last read from it, by action id. */
  store?:
    | { url: string; sessionId: string; steps: ReadonlyMap<string, readonly JournalTransition[]> }
    | undefined;
}

/** The whole state of an inspect server, as `GET /api/state` and the `state` event carry it. */
export function buildInspectState(sources: InspectStateSources): InspectState {
  const { session } = sources;
  const choice = session.toolChoice();
  const steps = sources.store?.steps;
  const pending = session.pending.list();
  return {
    version: sources.version,
    cwd: session.cwd,
    tools: session
      .tools()
      .filter((tool) => tool.name !== RESOLVE_TOOL_NAME)
      .map((tool) => toolView(tool, session)),
    diagnostics: sources.diagnostics.map((diagnostic) => diagnosticView(diagnostic, session.cwd)),
    pending: pending.map((record) => pendingView(record, sources.applyFailures, steps)),
    toolChoice: typeof choice === "string" ? choice : choice.name,
    running: [...sources.running],
    ...(sources.store === undefined ? {} : { store: storeView(sources.store, pending) }),
  };
}

function transitionView(step: JournalTransition): TransitionView {
  return {
    kind: step.kind,
    at: step.at,
    ...(step.reason === undefined ? {} : { reason: step.reason }),
    ...(step.error === undefined ? {} : { error: step.error }),
    process: { host: step.process.host, pid: step.process.pid },
  };
}

/** How many settled actions the page lists (the newest). */
export const SETTLED_SHOWN = 50;

/** The actions of the history that are no longer pending here, newest first (at most {@link SETTLED_SHOWN}). */
function storeView(
  store: { url: string; sessionId: string; steps: ReadonlyMap<string, readonly JournalTransition[]> },
  pending: readonly PendingActionRecord[],
): StoreView {
  const open = new Set(pending.map((record) => record.id));
  const settled = [...store.steps]
    .filter(([actionId]) => !open.has(actionId))
    .map(([actionId, list]) => ({
      actionId,
      label: list[0]?.label ?? actionId,
      steps: list.map(transitionView),
    }))
    .reverse()
    .slice(0, SETTLED_SHOWN);
  return { url: store.url, sessionId: store.sessionId, settled };
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
  steps: ReadonlyMap<string, readonly JournalTransition[]> | undefined,
): PendingView {
  const failure = failures.get(record.id);
  const history = steps?.get(record.id);
  return {
    id: record.id,
    label: record.label,
    sourceToolName: record.sourceToolName,
    createdAt: record.createdAt,
    details: record.details,
    ...(failure === undefined ? {} : { applyFailure: failure }),
    ...(record.handler === undefined ? {} : { handler: record.handler }),
    ...(record.interrupted === true ? { interrupted: true as const } : {}),
    ...(record.stagedBy === undefined ? {} : { stagedBy: { ...record.stagedBy } }),
    ...(steps === undefined ? {} : { history: (history ?? []).map(transitionView) }),
  };
}
