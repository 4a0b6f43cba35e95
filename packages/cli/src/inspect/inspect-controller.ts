import type { ServerResponse } from "node:http";
import type { ToolsReload } from "@tooldock/loader";
import {
  asSchema,
  type JournalTransition,
  RESOLVE_TOOL_NAME,
  type Session,
  type ToolCallError,
} from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";
import { type AgentToolResult, type Diagnostic, TooldockError } from "@tooldock/sdk";
import { type RunningResolve, trackResolve } from "../call/wait-for-resolves.js";
import { refusedInProcessNote } from "../store/stored-isolation.js";
import { EventHub } from "./event-hub.js";
import type {
  CallRequest,
  CallResponse,
  InspectState,
  ResolveRequest,
  ValidateRequest,
  ValidateResponse,
} from "./inspect-protocol.js";
import { buildInspectState } from "./inspect-state.js";
import { logLineOf, messageOf } from "./session-log.js";

/** Options of {@link InspectController}. */
export interface InspectControllerOptions {
  session: Session;
  version: string;
  /** The diagnostics of the first load. */
  diagnostics: readonly Diagnostic[];
  /** Default `Date.now`. */
  now?: () => number;
  /** The durable store the session lives in (`--store`): its history is shown with each action. */
  store?: { url: string; sessionId: string };
}

/** The code of the error {@link InspectController.call} throws for a call id in use (the server answers 409). */
export const CALL_ID_IN_USE = "E_CALL_ID_IN_USE";

/**
 * What the inspect page can do with one session: read its state, call a tool (streaming its
 * partial results as `call-update` events) and cancel it, resolve the top pending action as
 * the `resolve` tool does, check arguments. Every session event becomes an event log line, and
 * every change of what the page shows a `state` event.
 */
export class InspectController {
  readonly hub: EventHub;
  readonly #session: Session;
  readonly #version: string;
  readonly #now: () => number;
  readonly #running = new Map<string, AbortController>();
  readonly #resolves = new Set<RunningResolve>();
  readonly #applyFailures = new Map<string, { message: string; at: number }>();
  readonly #unsubscribe: () => void;
  #diagnostics: readonly Diagnostic[];
  #resolveCount = 0;
  #stateQueued = false;
  readonly #store: { url: string; sessionId: string } | undefined;
  /** With a store: each action's steps, as last read, in the order the actions first appeared. */
  readonly #steps = new Map<string, readonly JournalTransition[]>();
  /** The history reads, one after the other (a later read of an action is the newer one). */
  #reading: Promise<void> = Promise.resolve();

  constructor(options: InspectControllerOptions) {
    this.#session = options.session;
    this.#version = options.version;
    this.#diagnostics = options.diagnostics;
    this.#now = options.now ?? Date.now;
    this.#store = options.store;
    this.hub = new EventHub({ now: this.#now });
    this.#unsubscribe = this.#session.subscribe((event) => {
      if (event.type === "action-apply-failed") {
        this.#applyFailures.set(event.record.id, { message: messageOf(event.error), at: this.#now() });
      } else if (event.type === "action-applied" || event.type === "action-discarded") {
        this.#applyFailures.delete(event.record.id);
      }
      const line = logLineOf(event);
      if (line !== undefined) this.hub.log(line.kind, line.summary, line.detail);
      if (event.type.startsWith("action-") && "record" in event) void this.#readSteps(event.record.id);
      if (event.type !== "tool-call-start") this.#queueState();
    });
  }

  /**
   * Reads the session's whole history from the durable store (with `--store`; a server does
   * it once, before serving), then sends the state. A store that fails is a warning in the
   * event log.
   */
  loadHistory(): Promise<void> {
    return this.#read(undefined);
  }

  /** Reads one action's steps again after an event of it, then sends the state. */
  #readSteps(actionId: string): Promise<void> {
    return this.#read(actionId);
  }

  #read(actionId: string | undefined): Promise<void> {
    if (this.#store === undefined) return Promise.resolve();
    this.#reading = this.#reading.then(async () => {
      try {
        const steps = await this.#session.pending.history(actionId === undefined ? {} : { actionId });
        if (actionId !== undefined) this.#steps.set(actionId, steps);
        else
          for (const step of steps)
            this.#steps.set(step.actionId, [...(this.#steps.get(step.actionId) ?? []), step]);
      } catch (error) {
        this.hub.log("warning", "the durable store's history could not be read", messageOf(error));
      }
      this.#queueState();
    });
    return this.#reading;
  }

  /** Everything the page shows that is not a stream. */
  state(): InspectState {
    return buildInspectState({
      version: this.#version,
      session: this.#session,
      diagnostics: this.#diagnostics,
      applyFailures: this.#applyFailures,
      running: this.#running.keys(),
      store: this.#store === undefined ? undefined : { ...this.#store, steps: this.#steps },
    });
  }

  /** Makes `response` an event stream of this controller. */
  attachEvents(response: ServerResponse): void {
    this.hub.attach(response, this.state());
  }

  /** Runs one tool through the session; its partial results go out as `call-update` events. */
  async call(request: CallRequest): Promise<CallResponse> {
    if (this.#running.has(request.callId))
      throw new TooldockError(
        CALL_ID_IN_USE,
        `A call with id "${request.callId}" is still running; start the new call with another id.`,
      );
    const controller = new AbortController();
    this.#running.set(request.callId, controller);
    this.#queueState();
    try {
      return await this.#execute(`inspect-${request.callId}`, request.tool, request.params, {
        signal: controller.signal,
        onUpdate: (partial) => this.hub.send("call-update", { callId: request.callId, partial }),
      });
    } finally {
      this.#running.delete(request.callId);
      this.#queueState();
    }
  }

  /** Aborts a running call; false when no call of that id runs. */
  cancel(callId: string): boolean {
    const controller = this.#running.get(callId);
    if (controller === undefined) return false;
    controller.abort(new Error("cancelled on the inspect page"));
    return true;
  }

  /** Applies or discards the top pending action, exactly as the `resolve` tool does for a model. */
  async resolve(request: ResolveRequest): Promise<CallResponse> {
    this.#resolveCount += 1;
    const toolCallId = `inspect-resolve-${this.#resolveCount}`;
    // Another process may have changed a durable session's stack (`tooldock call --store`):
    // read it first, as the MCP server does before a call. A store that fails here fails the
    // resolve too, which says so.
    if (this.#store !== undefined) await this.#session.pending.refresh().catch(() => {});
    // Read before the resolve: it takes the top action off the stack as it starts.
    const top = this.#session.pending.peek();
    const running = this.#execute(toolCallId, RESOLVE_TOOL_NAME, request).then(withRefusedNote);
    trackResolve(this.#resolves, top, request, running);
    return running;
  }

  /** The resolves running now; an apply or a reject takes no signal, so a stop waits for them. */
  resolving(): RunningResolve[] {
    return [...this.#resolves];
  }

  /** Checks arguments with the validator the session uses; unknown tools get one issue at the root. */
  validate(request: ValidateRequest): ValidateResponse {
    const tool = this.#session.get(request.tool);
    if (tool === undefined) return { issues: [{ path: "", message: `No tool is named "${request.tool}"` }] };
    try {
      const outcome = asSchema(tool.parameters).validate(request.params);
      return { issues: outcome.success ? [] : outcome.issues };
    } catch (error) {
      return { issues: [{ path: "", message: `The arguments cannot be checked: ${messageOf(error)}` }] };
    }
  }

  /** After a reload of the tools: its diagnostics become the shown ones, and the log says what changed. */
  reloaded(reload: ToolsReload): void {
    this.#diagnostics = reload.diagnostics;
    const { added, removed, replaced } = reload.changes;
    const list = (names: string[]) => (names.length > 0 ? names.join(", ") : "none");
    const errors = reload.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
    const changed =
      reload.changedPaths.length > 0 ? ` after a change to ${reload.changedPaths.join(", ")}` : "";
    this.hub.log(
      "reload",
      `reloaded${changed}: added ${list(added)}; removed ${list(removed)}; replaced ${list(replaced)}` +
        (errors > 0 ? `; ${count(errors, "error")}, a module that failed keeps its previous tools` : ""),
    );
    this.#queueState();
  }

  /** Aborts the running calls, ends the event streams and stops listening to the session. */
  close(): void {
    for (const controller of this.#running.values())
      controller.abort(new Error("the inspect server stopped"));
    this.#unsubscribe();
    this.hub.close();
  }

  async #execute(
    toolCallId: string,
    name: string,
    params: unknown,
    extra: { signal?: AbortSignal; onUpdate?: (partial: AgentToolResult) => void } = {},
  ): Promise<CallResponse> {
    let error: ToolCallError | undefined;
    const unsubscribe = this.#session.subscribe((event) => {
      if (event.type === "tool-call-end" && event.toolCallId === toolCallId) error = event.error;
    });
    try {
      const result = await this.#session.execute({ toolCallId, name, params, ...extra });
      if (error === undefined) return { result };
      return {
        result,
        error: {
          message: error.message,
          ...(error.location === undefined ? {} : { location: error.location }),
        },
      };
    } finally {
      unsubscribe();
    }
  }

  /** One `state` event per turn of the event loop, however many session events came. */
  #queueState(): void {
    if (this.#stateQueued) return;
    this.#stateQueued = true;
    queueMicrotask(() => {
      this.#stateQueued = false;
      this.hub.send("state", this.state());
    });
  }
}

/** A resolve's answer, with the CLI's ways to resolve an action the session refused in-process. */
function withRefusedNote(response: CallResponse): CallResponse {
  const note = refusedInProcessNote(response.result);
  if (note === undefined) return response;
  const { result } = response;
  return { ...response, result: { ...result, content: [...result.content, { type: "text", text: note }] } };
}
