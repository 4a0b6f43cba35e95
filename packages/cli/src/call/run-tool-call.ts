import { createAstEditTool } from "@tooldock/ast-edit";
import { type IsolationOptions, ToolHost } from "@tooldock/loader";
import {
  type PendingActionRecord,
  type PendingActionStore,
  Session,
  type ToolCallError,
  type ToolChoice,
} from "@tooldock/runtime";
import { settledWithin } from "@tooldock/runtime/internal";
import type { AgentToolResult } from "@tooldock/sdk";
import type { CliIo } from "../cli-io.js";
import { type LoadedTools, loadTools } from "../load/load-tools.js";
import { createStderrLogger } from "../mcp/stderr-logger.js";
import type { Output } from "../output/output.js";
import { type Resolution, type ResolveStagedOptions, resolveStaged } from "./resolve-all.js";

/**
 * Longest the CLI waits for pending actions to be discarded (each `reject`) and the tools'
 * shutdown hooks, before the call and on the way out; past it, it goes on without them.
 */
export const DISCARD_BOUND_MS = 5_000;

/** The id of the one call `tooldock call` makes (`resolve` calls get their own). */
const CALL_ID = "call-1";

/** Options of {@link runToolCall}. */
export interface ToolCallOptions {
  io: CliIo;
  output: Output;
  toolName: string;
  paths: string[];
  params: Record<string, unknown>;
  resolve?: Omit<ResolveStagedOptions, "ours">;
  /** Receives the tool's streamed partial results. */
  onUpdate?: (partial: AgentToolResult) => void;
  /** Load the modules in a tool host (`--isolate`); default in-process. */
  isolation?: IsolationOptions;
  /** Load opencode tools too (`--opencode`, the loader's `opencode`). Default: false. */
  opencode?: boolean;
  /**
   * A durable store (`--store`): the session is its session, with the stack read from it, and
   * the durable actions still pending at the end stay there (the others are discarded on exit).
   */
  store?: { sessionId: string; pending: PendingActionStore };
}

/** What one `tooldock call` did. */
export interface ToolCallOutcome {
  loaded: LoadedTools;
  /** Actions staged before the call (by a factory at load time, a start hook, a timer): discarded, never resolved. */
  discardedBeforeCall: PendingActionRecord[];
  result: AgentToolResult;
  /** What the tool threw or rejected with, when it did: message, source-mapped stack, its own line. */
  error?: ToolCallError;
  /** What this call staged and left pending right after it returned, top first. */
  staged: PendingActionRecord[];
  /** The tool choice right after the call: `resolve` while something is pending. */
  toolChoice: ToolChoice;
  resolved: Resolution[];
  /** Why `--apply` / `--discard` stopped with actions of the call still pending. */
  stopped?: string;
  /** What is still pending after resolving (discarded when the session is disposed). */
  pending: PendingActionRecord[];
  /** False when discarding on the way out (a `reject`, a shutdown hook) did not finish in time. */
  disposed: boolean;
}

/**
 * Loads tools into a fresh session (with the built-in `ast_edit`), runs one tool, and with
 * `resolve` applies or discards what that call staged, top first. Actions staged by anything
 * else (a factory at load time) are discarded through their `reject` before the call and are
 * never applied. The session is disposed at the end, which discards whatever is still pending
 * (with a store: the callback actions; durable ones stay in it): a bare `call` never changes
 * anything a deferrable tool only previewed. Waiting for `reject`
 * callbacks is bounded ({@link DISCARD_BOUND_MS}), so a callback that never settles cannot hold the CLI.
 */
export async function runToolCall(options: ToolCallOptions): Promise<ToolCallOutcome> {
  const { io } = options;
  const { store } = options;
  const session = new Session({
    cwd: io.cwd,
    ...(store === undefined ? {} : { sessionId: store.sessionId, pending: store.pending }),
  });
  // The tools' pi.logger lines go to stderr, as `mcp` writes them: stdout is the result's.
  const host = new ToolHost({ cwd: io.cwd, logger: createStderrLogger(io.stderr) });
  host.setActiveSession(session);
  const ours = new Set<string>();
  let tracking = false;
  let error: ToolCallError | undefined;
  const unsubscribe = session.subscribe((event) => {
    if (tracking && event.type === "action-pending") ours.add(event.record.id);
    if (event.type === "tool-call-end" && event.toolCallId === CALL_ID) error = event.error;
  });
  let outcome: Omit<ToolCallOutcome, "disposed">;
  let disposed = false;
  let loaded: LoadedTools | undefined;
  try {
    session.register(createAstEditTool({ cwd: io.cwd }), "built-in");
    loaded = await loadTools({
      io,
      output: options.output,
      paths: options.paths,
      command: "call",
      toolName: options.toolName,
      session,
      host,
      isolation: options.isolation,
      opencode: options.opencode,
    });
    await session.start();
    // Not the call's to resolve, and the pending policy would refuse the call while they wait.
    const discardedBeforeCall = session.pending.list();
    if (discardedBeforeCall.length > 0) {
      const reason = "staged before the call; tooldock call discards it";
      await settledWithin(session.pending.clear(reason, { timeoutMs: DISCARD_BOUND_MS }), DISCARD_BOUND_MS);
    }
    tracking = true;
    const result = await session.execute({
      toolCallId: CALL_ID,
      name: options.toolName,
      params: options.params,
      signal: io.signal,
      onUpdate: options.onUpdate,
    });
    const staged = session.pending.list().filter((record) => ours.has(record.id));
    const toolChoice = session.toolChoice();
    const { resolutions, stopped } = options.resolve
      ? await resolveStaged(session, { ...options.resolve, ours })
      : { resolutions: [], stopped: undefined };
    outcome = {
      loaded,
      discardedBeforeCall,
      result,
      ...(error === undefined ? {} : { error }),
      staged,
      toolChoice,
      resolved: resolutions,
      ...(stopped === undefined ? {} : { stopped }),
      pending: session.pending.list(),
    };
  } finally {
    tracking = false;
    host.setActiveSession(undefined);
    disposed = await settledWithin(session.dispose(), DISCARD_BOUND_MS);
    unsubscribe();
    // After the session: discarding what is pending runs each action's reject in the tool host.
    await loaded?.close();
  }
  return { ...outcome, disposed };
}
