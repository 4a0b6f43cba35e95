// What the inspect server and its page say to each other: the JSON of the `/api/*` routes and
// the server-sent events of `/api/events`. Types only, shared by the server (Node) and the page
// (browser, `page/`), so both sides compile against one definition.
import type { AgentToolResult, Diagnostic } from "@tooldock/sdk";

/** One registered tool as the page shows it. */
export interface ToolView {
  name: string;
  label: string;
  description: string;
  /** Where it came from: the module's path (relative to the working folder when inside it) or `built-in`. */
  origin: string;
  hidden: boolean;
  deferrable: boolean;
  /** The MCP annotations `tooldock mcp` would list for it (`readOnlyHint`, `destructiveHint`, …). */
  annotations: Record<string, unknown>;
  /** Its parameters as JSON Schema. */
  parameters: Record<string, unknown>;
  /** The JSON Schema of its results' `structuredContent`, when it declares an `outputSchema`. */
  outputSchema?: Record<string, unknown>;
}

/** One load diagnostic, with the text `tooldock list` prints for it (code frame and hint included). */
export interface DiagnosticView {
  diagnostic: Diagnostic;
  /** `formatDiagnostic` of the loader, without colour, paths relative to the working folder. */
  text: string;
}

/** One pending action, as the page shows it. */
export interface PendingView {
  id: string;
  label: string;
  sourceToolName: string;
  /** When it was staged (ms since the epoch). */
  createdAt: number;
  details: unknown;
  /** The last failed apply of this action, while it stays pending. */
  applyFailure?: { message: string; at: number };
  /** A durable action: the handler of its tool that applies it (its payload stays on the server). */
  handler?: string;
  /** Read back from the store after its apply was cut off: it can only be discarded. */
  interrupted?: true;
  /** A callback action another process staged: only that process can apply it. */
  stagedBy?: { host: string; pid: number };
  /** Its steps as the durable store keeps them, oldest first (with `--store`). */
  history?: TransitionView[];
}

/** One step of an action's history in the durable store. */
export interface TransitionView {
  kind: "staged" | "applied" | "apply-failed" | "discarded" | "lost" | "interrupted";
  /** Ms since the epoch. */
  at: number;
  reason?: string;
  error?: string;
  /** The process that made the step. */
  process: { host: string; pid: number };
}

/** The durable store the session lives in (`tooldock inspect --store`). */
export interface StoreView {
  /** `sqlite:PATH` or the `postgresql://` connection string, as given. */
  url: string;
  sessionId: string;
  /** The session's actions that are settled (applied, discarded, lost), newest first, with their steps. */
  settled: Array<{ actionId: string; label: string; steps: TransitionView[] }>;
}

/** Everything the page shows that is not a stream: `GET /api/state` and the `state` event. */
export interface InspectState {
  version: string;
  cwd: string;
  tools: ToolView[];
  /** The diagnostics of the latest load (the first one, or the last reload). */
  diagnostics: DiagnosticView[];
  /** Top (newest) first: `resolve` acts on `pending[0]`. */
  pending: PendingView[];
  /** `resolve` while something is pending, else the configured choice. */
  toolChoice: string;
  /** The tool calls still running (their ids as the page chose them). */
  running: string[];
  /** With `--store`: where the actions are kept, and what became of those no longer pending. */
  store?: StoreView;
}

/** What the event log lists. */
export type LogKind =
  | "call"
  | "result"
  | "push"
  | "resolution"
  | "reminder"
  | "reload"
  | "log"
  | "warning"
  | "fault";

/** One line of the event log. */
export interface LogEntry {
  /** Increases by one per entry, from 1. */
  seq: number;
  /** When it happened (ms since the epoch). */
  at: number;
  kind: LogKind;
  /** One line for a person. */
  summary: string;
  /** More text (a reminder, a result's text, a reload's diagnostics), when there is some. */
  detail?: string;
}

/** `POST /api/call`. */
export interface CallRequest {
  /** Chosen by the page (`[A-Za-z0-9_-]`, 1–64 characters) so it can cancel the call and match its updates. */
  callId: string;
  tool: string;
  params: unknown;
}

/** The answer to `POST /api/call` and `POST /api/resolve`. */
export interface CallResponse {
  result: AgentToolResult;
  /** What the tool threw, when it threw: message, and the tool's own line. */
  error?: { message: string; location?: { file: string; line: number; column: number } };
}

/** `POST /api/cancel`. */
export interface CancelRequest {
  callId: string;
}

/** `POST /api/resolve`: what the `resolve` tool gets. */
export interface ResolveRequest {
  action: "apply" | "discard";
  reason: string;
}

/** `POST /api/validate`: checks arguments with the validator the session uses. */
export interface ValidateRequest {
  tool: string;
  params: unknown;
}

/** The answer to `POST /api/validate`; `path` is a JSON Pointer (`""` for the root). */
export interface ValidateResponse {
  issues: Array<{ path: string; message: string }>;
}

/** The answer of every route that refuses a request (4xx, 5xx). */
export interface ErrorResponse {
  error: string;
}

/** A streamed partial result of a running call: the `call-update` event. */
export interface CallUpdate {
  callId: string;
  partial: AgentToolResult;
}

/** The events of `GET /api/events` (server-sent events), by their `event:` name. */
export interface InspectEvents {
  /** The whole state; first on connect, then after anything that changes it. */
  state: InspectState;
  /** One new log entry; on connect, the latest entries are replayed first. */
  log: LogEntry;
  "call-update": CallUpdate;
}
