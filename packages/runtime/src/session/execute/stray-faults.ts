import type { RunningToolCall } from "./tool-call-scope.js";
import { strayFaultScope, trackToolCalls } from "./tool-call-scope.js";

/** A throw or a rejection that reached the process with nobody to catch it. */
export interface StrayFault {
  kind: "uncaught exception" | "unhandled rejection";
  error: unknown;
  /**
   * The tool call whose code threw (a timer or a `close` handler it left running, also after
   * it returned), when the fault came from one; its session emitted a `tool-call-fault`
   * (`stray-exception` / `stray-rejection`) for it.
   */
  call?: Pick<RunningToolCall, "sessionId" | "toolCallId" | "toolName">;
}

/**
 * For a host's own `uncaughtException` / `unhandledRejection` handler: finds the tool call
 * whose code threw `error` (Node runs those handlers in the async context of the throw) and
 * has its session emit a `tool-call-fault` event (`stray-exception` / `stray-rejection`, with
 * the call's id, the tool's name and `error`). Returns that call, or `undefined` for a fault
 * no tool call started (or before `trackToolCalls()`). Never throws.
 */
export function reportStrayFault(
  kind: StrayFault["kind"],
  error: unknown,
): Pick<RunningToolCall, "sessionId" | "toolCallId" | "toolName"> | undefined {
  const scope = strayFaultScope();
  if (scope === undefined) return undefined;
  try {
    scope.reportStray(kind === "uncaught exception" ? "stray-exception" : "stray-rejection", error);
  } catch {
    // The session's listeners are contained by its emitter; nothing else can throw here.
  }
  return { sessionId: scope.sessionId, toolCallId: scope.toolCallId, toolName: scope.toolName };
}

// Captured when this module is evaluated, before any tool module can replace them.
const on = process.on.bind(process);
const off = process.off.bind(process);

/**
 * Keeps the process alive when code a tool left running throws or rejects with nobody to
 * catch it (Node's default ends the process: a server loses every conversation for one
 * tool's late `close` handler). Until the returned function is called, each such fault is
 * reported as a session event of the call that started the code ({@link reportStrayFault})
 * and passed to `onFault` (with that call, when there is one), and the process goes on.
 * Turns call tracking on (`trackToolCalls()`). Call it once, early, in a long-running host;
 * the `tooldock` CLI installs its own for `call` and `mcp`.
 *
 * What it cannot do: a fault not started by a tool call (the host's own bug) is reported
 * too, without `call`, and also does not end the process; end it yourself in `onFault` if
 * you want Node's default for those.
 *
 * @example
 * ```ts
 * const release = containStrayFaults((fault) =>
 *   log.error(`${fault.kind} from ${fault.call?.toolName ?? "the host"}`, fault.error),
 * );
 * ```
 */
export function containStrayFaults(onFault: (fault: StrayFault) => void = () => {}): () => void {
  trackToolCalls();
  const handle = (kind: StrayFault["kind"]) => (error: unknown) => {
    const call = reportStrayFault(kind, error);
    try {
      onFault(call === undefined ? { kind, error } : { kind, error, call });
    } catch {
      // A reporter that fails (a closed stream) must not turn the fault back into a crash.
    }
  };
  const onException = handle("uncaught exception");
  const onRejection = handle("unhandled rejection");
  on("uncaughtException", onException);
  on("unhandledRejection", onRejection);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    off("uncaughtException", onException);
    off("unhandledRejection", onRejection);
  };
}
