import { AsyncLocalStorage } from "node:async_hooks";
import { asSchema } from "@tooldock/runtime";
import {
  argumentsSeen,
  describeError,
  outputProblem,
  readResult,
  toolCallMessages,
  toolOrigin,
} from "@tooldock/runtime/internal";
import {
  type AgentToolResult,
  type CustomTool,
  type CustomToolContext,
  type CustomToolDurableAction,
  type CustomToolPendingAction,
  errorResult,
} from "@tooldock/sdk";
import { jsonText } from "../json-copy.js";
import type { CallContext, ChildMessage, WireError } from "../protocol.js";

/** A call running in the tool host. */
export interface ChildCall {
  id: number;
  toolName: string;
  toolCallId: string;
  sessionId: string;
  /** Whether the host has a user interface for this call's session (`pi.hasUI` during it). */
  hasUI: boolean;
  ended: boolean;
  controller: AbortController | undefined;
  pending: number;
}

/** The call whose code is running now (pushes through `pi` during a call belong to it). */
export const currentCall = new AsyncLocalStorage<ChildCall>();

/**
 * Turns a thrown value into the data the host rebuilds it from. Its message is worded as a
 * Session words the same throw in-process (runtime's `describeError`: an object's `message`,
 * else its JSON, `an unreadable Error` for one whose fields throw); an Error's name, stack and
 * code go along when they can be read. Never throws: an answer that failed here would leave
 * the host's call waiting for its deadline.
 */
export function wireError(error: unknown): WireError {
  const wire: WireError = { message: describeError(error) };
  let isError: boolean;
  try {
    isError = error instanceof Error; // a Proxy's getPrototypeOf trap may throw
  } catch {
    return wire;
  }
  if (!isError) return wire;
  for (const field of ["name", "stack", "code"] as const) {
    try {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (typeof value === "string") wire[field] = value;
    } catch {
      // A getter that throws: the field is left out.
    }
  }
  return wire;
}

/** A result as JSON carries it; details that JSON cannot carry are dropped, as in-process. */
export function wireResult(value: unknown): AgentToolResult {
  return JSON.parse(wireResultText(value)) as AgentToolResult;
}

/**
 * {@link wireResult} as JSON text: a call's result is written once, not copied and then
 * written (each copy is a stringify and a parse of the whole result).
 */
function wireResultText(value: unknown): string {
  const text = jsonText(value);
  if (text !== undefined) return text;
  if (typeof value === "object" && value !== null) {
    const { details: _dropped, ...rest } = value as AgentToolResult;
    const withoutDetails = jsonText(rest);
    if (withoutDetails !== undefined) return withoutDetails;
  }
  // Not a result the session can read: it says so, as for the same result in-process.
  return "{}";
}

export interface CallRunner {
  send(message: ChildMessage): void;
  /** Sends a call's result, already JSON text (see {@link wireResultText}). */
  sendResult(id: number, resultText: string): void;
  /** The call answers now: called before its last message is sent. */
  end(call: ChildCall): void;
  stage(
    action: CustomToolPendingAction | CustomToolDurableAction,
    via: "ctx" | "pi",
    call: ChildCall | undefined,
  ): void;
}

/**
 * What a tool's `execute` (the module's own, not the loader's record of it) can see of its
 * arguments, read once per tool as a Session does at registration: one that cannot see its
 * signal or context gets neither (an `AbortSignal` costs ~8 us to create on Node 20).
 */
const seenByTool = new WeakMap<CustomTool, { signal: boolean; context: boolean }>();

function seenBy(tool: CustomTool): { signal: boolean; context: boolean } {
  let seen = seenByTool.get(tool);
  if (seen === undefined) {
    try {
      seen = argumentsSeen(toolOrigin(tool)?.execute ?? tool.execute);
    } catch {
      seen = { signal: true, context: true }; // a function whose source or length cannot be read
    }
    seenByTool.set(tool, seen);
  }
  return seen;
}

/**
 * Runs one call of `tool` and sends its outcome; arguments are checked by its real schema.
 * `runner.end(call)` comes before the last message: once that is written, the host runs, and
 * on a machine with few cores it may wait for this process to go idle first.
 */
export async function runCall(
  runner: CallRunner,
  tool: CustomTool,
  call: ChildCall,
  toolCallId: string,
  params: unknown,
  context: CallContext,
  updates: boolean,
): Promise<void> {
  const finish = (message: ChildMessage) => {
    call.ended = true;
    runner.end(call);
    runner.send(message);
  };
  const refuse = (text: string) => finish({ t: "result", id: call.id, result: errorResult(text) });
  let validation: ReturnType<ReturnType<typeof asSchema>["validate"]>;
  try {
    validation = asSchema(tool.parameters).validate(params);
  } catch (error) {
    return refuse(toolCallMessages.brokenSchema(tool.name, error));
  }
  if (!validation.success) return refuse(toolCallMessages.invalidArguments(tool.name, validation.issues));
  const seen = seenBy(tool);
  const ctx = seen.context ? callContext(runner, call, context) : undefined;
  const signal = seen.signal ? call.controller?.signal : undefined;
  // A partial or a result is read here as a Session reads it: one the Session would refuse
  // never crosses the boundary (the host would take it for a broken protocol).
  const onUpdate = updates
    ? (partial: AgentToolResult) => {
        if (call.ended) return;
        const reading = readResult(partial);
        if (reading.ok) runner.send({ t: "update", id: call.id, partial: wireResult(reading.result) });
      }
    : undefined;
  let result: unknown;
  try {
    result = await currentCall.run(call, () =>
      tool.execute(toolCallId, validation.value as never, onUpdate, ctx as CustomToolContext, signal),
    );
    call.ended = true;
  } catch (error) {
    return finish({ t: "error", id: call.id, error: wireError(error) });
  }
  const reading = readResult(result);
  if (!reading.ok) return refuse(toolCallMessages.malformedResult(tool.name, reading.problem));
  const resultText = wireResultText(reading.result);
  // The tool's outputSchema is checked here, by its real schema: the host's copy of it is
  // only described (a pattern in it could otherwise keep the host's CPU for days).
  const schema = tool.outputSchema;
  const problem =
    schema === undefined
      ? undefined
      : outputProblem(tool.name, (value) => asSchema(schema).validate(value), JSON.parse(resultText));
  if (problem !== undefined) return refuse(problem);
  runner.end(call);
  runner.sendResult(call.id, resultText);
}

/** The `ctx` of a call in the tool host, from the values the host read when it started. */
export function callContext(runner: CallRunner, call: ChildCall, context: CallContext): CustomToolContext {
  const entries = context.entries ?? [];
  const branch = context.branch ?? entries;
  return {
    sessionId: context.sessionId,
    cwd: context.cwd,
    hasPendingActions: () => context.hasPendingActions || call.pending > 0,
    abort: () => {
      if (call.ended) return;
      call.ended = true;
      call.controller?.abort(new Error(`The tool "${call.toolName}" aborted its own call.`));
      runner.send({ t: "call-abort", id: call.id });
    },
    pushPendingAction: (action) => runner.stage(action, "ctx", call),
    sessionManager: {
      getEntries: () => structuredClone(entries) as never,
      getBranch: () => structuredClone(branch) as never,
      getSessionFile: () => context.sessionFile,
      getSessionId: () => context.sessionId,
      getCwd: () => context.cwd,
    },
    model: context.model as CustomToolContext["model"],
    isIdle: () => context.isIdle ?? true,
    hasQueuedMessages: () => context.hasQueuedMessages ?? false,
  };
}
