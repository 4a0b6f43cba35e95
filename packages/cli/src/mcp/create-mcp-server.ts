import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
  type LoggingLevel,
  RequestSchema,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { RESOLVE_TOOL_NAME, type Session } from "@tooldock/runtime";
import { type AgentToolResult, errorResult } from "@tooldock/sdk";
import { type RunningResolve, trackResolve } from "../call/wait-for-resolves.js";
import { refusedInProcessNote } from "../store/stored-isolation.js";
import { watchActiveTools } from "./active-tools-watch.js";
import { toCallToolResult } from "./call-tool-result.js";
import { cancelledCallText, cancelledResolveText } from "./cancelled-resolve.js";
import { errorLocationNote } from "./error-location-note.js";
import { listedMcpTools, listedTools, type ResolveListing } from "./resolve-listing.js";
import { SERVER_INFO, serverInstructions } from "./server-info.js";

/** Options of {@link createMcpServer}. */
export interface CreateMcpServerOptions {
  /** The session whose active tools are served. Its lifetime stays the caller's. */
  session: Session;
  /** Told about faults the protocol cannot carry (a notification that failed to send). */
  onError?: (error: unknown) => void;
  /**
   * When `tools/list` includes `resolve`: `"always"` from the start (every client sees it,
   * those that cache the tool list too), `"pending"` only while an action is pending (with
   * `notifications/tools/list_changed` as it comes and goes, for clients that list again).
   * Default: `"always"`.
   */
  resolve?: ResolveListing;
}

/**
 * `tools/call` as the protocol layer parses it before the handler runs: any params. The
 * SDK's server then checks them against `CallToolRequestSchema` and answers a bad call (no
 * name) with `-32602 Invalid params`; registered with the strict schema, the same call
 * failed in the protocol layer's own parse and was answered `-32603 Internal error`.
 */
const AnyCallToolRequestSchema = RequestSchema.extend({ method: CallToolRequestSchema.shape.method });

/** An MCP server over one Tooldock session. */
export interface TooldockMcpServer {
  /** The SDK's low-level server, for callers that need more than {@link connect}. */
  readonly server: Server;
  /** Starts serving over `transport` (stdio, in-memory, …). */
  connect(transport: Transport): Promise<void>;
  /** Closes the connection and stops watching the session; does not dispose the session. */
  close(): Promise<void>;
  /** Settles once the connection has closed, whichever side closed it. */
  readonly closed: Promise<void>;
  /**
   * Sends a `notifications/message` log entry (logger `tooldock`, or `logger`) when connected
   * and the client's log level (`logging/setLevel`) lets it through; never throws (a failed
   * send goes to `onError`).
   */
  log(level: LoggingLevel, text: string, logger?: string): void;
  /**
   * The `resolve` calls running now: the action each applies or discards, and when it ends.
   * An apply or a reject takes no signal, so a server that stops waits for these first.
   */
  resolving(): RunningResolve[];
  /**
   * Sends `notifications/tools/list_changed` (when connected): call it after tools were
   * registered or unregistered (a reload), since a tool replaced under the same name is a
   * change the active-tool watch, which compares names, cannot see. Never throws.
   */
  toolsChanged(): void;
}

type SendNotification = (notification: ServerNotification) => Promise<void>;

/**
 * Serves a session's tools over MCP. `tools/list` returns the session's active tools
 * (`resolve` included while an action is pending, or always with `resolve: "always"`); `tools/call` runs through
 * `session.execute`, so argument validation and the pending-action block policy hold. A
 * call that stages a pending action gets the session's reminder appended to its result,
 * and `notifications/tools/list_changed` is sent whenever the active tool set changes. The
 * server declares the `logging` capability: {@link TooldockMcpServer.log} reaches the client.
 *
 * @example
 * const session = new Session({ cwd });
 * session.register(myTool);
 * const mcp = createMcpServer({ session });
 * await mcp.connect(new StdioServerTransport());
 */
export function createMcpServer(options: CreateMcpServerOptions): TooldockMcpServer {
  const { session, onError = () => {}, resolve: listing = "always" } = options;
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: serverInstructions(listing),
  });
  let connected = false;
  const watch = watchActiveTools(
    session,
    () => {
      if (connected) server.sendToolListChanged().catch(onError);
    },
    () => listedTools(session, listing),
  );
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  server.onclose = () => {
    connected = false;
    watch.stop();
    markClosed();
  };

  server.setRequestHandler(
    ListToolsRequestSchema,
    (): ListToolsResult => ({ tools: listedMcpTools(session, listing) }),
  );
  const log = (level: LoggingLevel, text: string, logger = "tooldock") => {
    if (!connected) return;
    // The client's level is kept per transport session (over HTTP, each has its own).
    server.sendLoggingMessage({ level, logger, data: text }, server.transport?.sessionId).catch(onError);
  };
  const resolves = new Set<RunningResolve>();
  server.setRequestHandler(AnyCallToolRequestSchema, async (request, extra) => {
    try {
      // The SDK's server validated the request against CallToolRequestSchema before this runs.
      return await callTool(session, request as CallToolRequest, {
        resolves,
        // JSON-RPC ids "7" and 7 are two requests: the string keeps its quotes.
        toolCallId: `mcp-${typeof extra.requestId === "number" ? extra.requestId : JSON.stringify(extra.requestId)}`,
        signal: extra.signal,
        sendNotification: extra.sendNotification,
        log,
      });
    } finally {
      watch.check();
    }
  });

  return {
    server,
    async connect(transport) {
      await server.connect(transport);
      connected = true;
    },
    close: () => server.close(),
    closed,
    resolving: () => [...resolves],
    toolsChanged() {
      watch.sync();
      if (connected) server.sendToolListChanged().catch(onError);
    },
    log,
  };
}

interface CallContext {
  /** Where a `resolve` call is kept while it runs. */
  resolves: Set<RunningResolve>;
  toolCallId: string;
  signal: AbortSignal;
  sendNotification: SendNotification;
  /** Sends a log entry to the client, outside this request (whose own notifications stop once it is cancelled). */
  log: (level: LoggingLevel, text: string) => void;
}

async function callTool(
  session: Session,
  request: CallToolRequest,
  context: CallContext,
): Promise<CallToolResult> {
  const { name, arguments: params = {}, _meta: meta } = request.params;
  // A cancelled resolve runs to the end and the client is told by a log entry (see
  // cancelledResolveText): never a change made in silence.
  const resolving = name === RESOLVE_TOOL_NAME;
  // The reminders of the actions this call staged, and only those: matched by the call's
  // toolCallId (the session emits them after the call's end, while still pending), so a
  // call running beside it cannot lend it its own actions. Before them, where a tool that
  // threw failed (tool-call-end's error location).
  const notes: string[] = [];
  let thrownAt: string | undefined;
  const unsubscribe = session.subscribe((event) => {
    if (event.type === "reminder" && event.toolCallId === context.toolCallId) notes.push(event.text);
    if (event.type === "tool-call-end" && event.toolCallId === context.toolCallId)
      thrownAt = errorLocationNote(event.error, session.cwd);
  });
  let result: AgentToolResult;
  try {
    // A durable session's stack may have changed in another process (`tooldock pending`,
    // another server): read before the call, as a host does when a turn starts, so that the
    // pending policy and steering see what is pending now. A store that fails here (or failed
    // to record an earlier change) answers the call: nothing ran.
    const stale = await session.pending.refresh().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (stale !== undefined)
      return toCallToolResult(storeFailedResult(name, stale), [], session.maxResultChars);
    // Read before the call: the resolve takes the top action off the stack as it starts.
    const top = resolving ? session.pending.peek() : undefined;
    const running = session.execute({
      toolCallId: context.toolCallId,
      name,
      params,
      signal: resolving ? undefined : context.signal,
      // The session delivers no partial result after the call has ended, so no progress
      // notification follows the response (test: progress-after-response.test.ts).
      onUpdate: progressReporter(meta?.progressToken, context.sendNotification),
    });
    trackResolve(context.resolves, top, params, running);
    result = await running;
    const refused = resolving ? refusedInProcessNote(result) : undefined;
    if (refused !== undefined) notes.push(refused);
  } finally {
    unsubscribe();
  }
  if (context.signal.aborted) {
    // The response of a cancelled request is not sent: what the call left behind goes to the log.
    const text = resolving ? cancelledResolveText(result) : cancelledCallText(name, notes);
    if (text !== undefined) context.log("warning", text);
  }
  const allNotes = thrownAt === undefined ? notes : [thrownAt, ...notes];
  return toCallToolResult(result, allNotes, session.maxResultChars);
}

/** The answer of a call whose session's durable store failed when it was read before the call. */
function storeFailedResult(name: string, error: unknown): AgentToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return errorResult(
    `Tool "${name}" was not run: the session's durable store failed when it was read before the call (${message.replace(/\.+$/, "")}). Nothing was run; call again once the store is reachable, and tell the user.`,
  );
}

/**
 * Forwards a tool's partial results as `notifications/progress` when the client asked for
 * them: `message` is the partial's text; `progress` and `total` are the partial's
 * `details.progress` and `details.total` when the tool gives them as numbers (`total` at least
 * `progress`), else `progress` counts the partials. `progress` always increases, as the spec
 * requires (a smaller one is the last plus one).
 */
function progressReporter(
  progressToken: string | number | undefined,
  sendNotification: SendNotification,
): ((partial: AgentToolResult) => void) | undefined {
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (partial) => {
    const details = (
      typeof partial.details === "object" && partial.details !== null ? partial.details : {}
    ) as {
      progress?: unknown;
      total?: unknown;
    };
    const given =
      typeof details.progress === "number" && Number.isFinite(details.progress)
        ? details.progress
        : undefined;
    progress = given !== undefined && given > progress ? given : progress + 1;
    const total =
      typeof details.total === "number" && Number.isFinite(details.total) && details.total >= progress
        ? details.total
        : undefined;
    const message = partial.content
      .flatMap((block) => (block.type === "text" ? [block.text] : []))
      .join("\n");
    sendNotification({
      method: "notifications/progress",
      params: {
        progressToken,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message ? { message } : {}),
      },
    }).catch(() => {});
  };
}
