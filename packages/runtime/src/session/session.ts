import {
  type AgentToolResult,
  type CustomTool,
  type CustomToolContext,
  type CustomToolSessionEvent,
  TooldockError,
} from "@tooldock/sdk";
import { settleWithin } from "../pending/callback-deadline.js";
import type { PendingActionJournal } from "../pending/journal/pending-journal.js";
import type { PendingActionRecord } from "../pending/pending-action-record.js";
import { PendingActionStore } from "../pending/pending-action-store.js";
import { createResolveTool, RESOLVE_TOOL_NAME } from "../pending/resolve-tool.js";
import { storeInternals } from "../pending/store-internals.js";
import { describeError } from "../util/describe-error.js";
import {
  type ConversationView,
  conversationView,
  createSessionManager,
  sessionEventDetails,
} from "./conversation-source.js";
import { DeadlineTimers } from "./execute/deadline-timers.js";
import { type ExecuteDependencies, startToolCall } from "./execute/execute-tool-call.js";
import { InFlightCalls } from "./execute/in-flight-calls.js";
import { readToolCall } from "./execute/read-tool-call.js";
import { failed, type ToolCall } from "./execute/tool-call.js";
import { toolCallMessages } from "./execute/tool-call-messages.js";
import { pushingToolCallScope, type ScopeSlot } from "./execute/tool-call-scope.js";
import { type HookFaultHandler, notifyTool, notifyTools } from "./lifecycle.js";
import { reminderText } from "./reminder.js";
import { SessionEmitter, type SessionListener } from "./session-events.js";
import { resolveSessionOptions, type SessionConfig, type SessionOptions } from "./session-options.js";
import { currentToolChoice, type ToolChoice } from "./tool-choice.js";
import { createLifecycleContext } from "./tool-context.js";
import { ToolRegistry } from "./tool-registry.js";

// Captured when this module is evaluated: a tool module cannot change how a call answers.
const PromiseIntrinsic = Promise;
const promiseResolve: <T>(value: T) => Promise<T> = Promise.resolve.bind(Promise);

/** The origin of the `resolve` tool every session registers for itself. */
export const RESOLVE_TOOL_ORIGIN = "@tooldock/runtime (built-in resolve)";

/**
 * One conversation's tools and pending actions (docs/contract.md §4): a registry, a `PendingActionStore`
 * (`session.pending`), the execute pipeline, tool-choice steering and the tools' lifecycle.
 * It coordinates; the work is done in small modules beside it.
 *
 * @example
 * ```ts
 * const session = new Session({ cwd: "/repo" });
 * session.register(myTool, "tools/my-tool.ts");
 * await session.start();
 * const request = toAnthropicRequest(session); // tools + tool_choice for the next turn
 * const result = await session.execute({ toolCallId: "t1", name: "my_tool", params: { path: "a.txt" } });
 * await session.dispose();
 * ```
 */
export class Session {
  /**
   * A session whose pending actions live in `journal` (see `openSqliteJournal`), with the
   * actions of `sessionId` read back: after a restart, or in another process of the same
   * service. Durable actions (a handler and a payload) are applied by the handlers of the
   * tools this session registers; see `PendingActionStore.open` for the rest.
   *
   * @example
   * ```ts
   * const journal = openSqliteJournal("/var/lib/chat/pending.db");
   * const session = await Session.open({ sessionId: "chat-42", journal, cwd });
   * await loadCustomTools({ paths: ["./tools"], cwd, session });
   * session.pending.list(); // what was pending before the restart
   * ```
   */
  static async open(
    options: Omit<SessionOptions, "pending"> & { sessionId: string; journal: PendingActionJournal },
  ): Promise<Session> {
    const { journal, ...rest } = options;
    const resolveTimeoutMs = resolveSessionOptions(rest).resolveTimeoutMs;
    const pending = await PendingActionStore.open(journal, options.sessionId, {
      callbackTimeoutMs: resolveTimeoutMs,
    });
    return new Session({ ...rest, pending });
  }

  readonly id: string;
  readonly cwd: string;
  readonly pending: PendingActionStore;
  /**
   * Most characters of text a result may carry (`SessionOptions.maxResultChars`, `Infinity`
   * for none): for a host that adds text of its own, such as MCP's copy of `structuredContent`.
   */
  readonly maxResultChars: number;
  readonly #config: SessionConfig;
  readonly #registry = new ToolRegistry();
  readonly #emitter: SessionEmitter;
  readonly #lifecycleContext: CustomToolContext;
  readonly #conversation: ConversationView;
  readonly #execute: ExecuteDependencies;
  readonly #hooksInFlight = new Set<Promise<void>>();
  readonly #unsubscribePending: () => void;
  /**
   * The calls running now: closed by `dispose()` (stops them, refuses new ones); its size is
   * the default of `ctx.isIdle()`, and `unregister` waits for a tool's calls through it.
   */
  readonly #inFlight = new InFlightCalls();
  readonly #deadlines: DeadlineTimers;
  #state: "new" | "started" | "disposed" = "new";

  constructor(options: SessionOptions = {}) {
    this.#config = resolveSessionOptions(options);
    this.id = this.#config.sessionId;
    this.cwd = this.#config.cwd;
    this.maxResultChars = this.#config.maxResultChars;
    this.pending =
      options.pending ?? new PendingActionStore({ callbackTimeoutMs: this.#config.resolveTimeoutMs });
    this.#deadlines = new DeadlineTimers(this.#config.executeTimeoutMs);
    this.#emitter = new SessionEmitter(this.#config.onListenerError);
    const conversation = conversationView(options.conversation, () => this.#inFlight.size);
    this.#conversation = conversation;
    const pending = this.pending;
    const contextSource = {
      sessionId: this.id,
      cwd: this.cwd,
      pending,
      hasPendingActions: () => pending.hasPending,
      conversation,
      sessionManager: createSessionManager(conversation, { sessionId: this.id, cwd: this.cwd }),
    };
    this.#lifecycleContext = createLifecycleContext(contextSource);
    this.#execute = {
      registry: this.#registry,
      pending: this.pending,
      pendingPolicy: this.#config.pendingPolicy,
      activeToolNames: () => this.activeTools().map((tool) => tool.name),
      run: {
        source: contextSource,
        inFlight: this.#inFlight,
        deadlines: this.#deadlines,
        updateIntervalMs: this.#config.updateIntervalMs,
        maxResultChars: this.#config.maxResultChars,
      },
      onFault: (event) => this.#emitter.emit(event),
    };
    this.#unsubscribePending = this.pending.subscribe((event) => {
      this.#emitter.emit(event);
      // An action a call of this session staged (ctx or pi) is reminded after that call's
      // `tool-call-end` (see `execute`), so the reminder follows the tool result.
      if (event.type === "action-pending" && !pushingToolCallScope()?.noteStaged(contextSource, event.record))
        this.#emitter.emit({ type: "reminder", text: reminderText(event.record), record: event.record });
    });
    // Durable actions are applied by the handlers of the tools registered here.
    const registry = this.#registry;
    storeInternals(this.pending).binding = {
      handlers: (toolName) => registry.get(toolName)?.tool.actions,
      context: { sessionId: this.id, cwd: this.cwd },
      isolatedActionsInProcess: this.#config.isolatedActionsInProcess,
    };
    const resolve = createResolveTool(this.pending, { timeoutMs: this.#config.resolveTimeoutMs });
    // Bounded by resolveTimeoutMs inside, so the execute deadline does not cut its answer.
    this.#registry.register(resolve, RESOLVE_TOOL_ORIGIN, { ownDeadline: true });
  }

  /**
   * Adds a tool. `origin` (a file path, a package name) appears in conflict messages;
   * default `"the host"`. Throws a `TooldockError`: `E_NAME_CONFLICT` naming both origins,
   * `E_NAME_INVALID`, `E_INVALID_SCHEMA` or `E_INVALID_TOOL`. A tool registered after
   * `start()` gets its `start` event right away.
   */
  register(tool: CustomTool, origin?: string): void {
    const registered = this.#registry.register(tool, origin);
    for (const warning of registered.warnings) {
      this.#emitter.emit({
        type: "tool-warning",
        code: warning.code,
        toolName: registered.tool.name,
        origin: registered.origin,
        message: warning.message,
        hint: warning.hint,
      });
    }
    if (this.#state === "started")
      this.#track(
        notifyTool(
          registered.tool,
          this.#event("start"),
          this.#lifecycleContext,
          this.#onHookFault,
          this.#config.resolveTimeoutMs,
        ),
      );
  }

  /**
   * Removes a registered tool and returns whether there was one of that name. The name is
   * free again at once (a host reloading a module registers its new version under it), and
   * the session emits `tool-unregistered`. Calls of the tool already running finish as
   * usual; once they have ended (waiting at most `resolveTimeoutMs`), the tool gets
   * `{ reason: "shutdown" }` on its `onSession`, bounded like every hook (unless the session
   * was disposed: then it already had it). Pending actions the tool staged stay pending: they
   * carry their own `apply` and `reject`, and `resolve` still settles them. `activeTools()`
   * and the provider requests leave the tool out from now on.
   *
   * Throws a `TooldockError` `E_NAME_INVALID` for `resolve`: the session's own tool stays.
   * Built-in tools the host registered itself (`ast_edit`) can be unregistered like any other.
   */
  unregister(name: string): boolean {
    if (name === RESOLVE_TOOL_NAME) {
      throw new TooldockError(
        "E_NAME_INVALID",
        `Cannot unregister "${RESOLVE_TOOL_NAME}": it is the session's own tool, which applies and discards pending actions. Unregister only the tools you registered.`,
      );
    }
    const removed = this.#registry.unregister(name);
    if (removed === undefined) return false;
    this.#emitter.emit({ type: "tool-unregistered", toolName: name, origin: removed.origin });
    if (this.#state !== "disposed")
      this.#track(this.#shutDownRemoved(removed.tool, this.#inFlight.ended(name)));
    return true;
  }

  /** The registered tool of that name, hidden ones included. */
  get(name: string): CustomTool | undefined {
    return this.#registry.get(name)?.tool;
  }

  /** The origin the tool of that name was registered with (see `register`), if there is one. */
  originOf(name: string): string | undefined {
    return this.#registry.get(name)?.origin;
  }

  /** Every registered tool, hidden ones (and `resolve`) included, in registration order. */
  tools(): CustomTool[] {
    return this.#registry.entries().map((entry) => entry.tool);
  }

  /**
   * The tools to offer the model now, in registration order: the visible ones, the hidden
   * ones the host exposed (`exposeHiddenTools`), and `resolve` exactly while anything is
   * pending. The provider adapters send this list.
   */
  activeTools(): CustomTool[] {
    const hasPending = this.pending.hasPending;
    const exposes = this.#config.exposesHidden;
    return this.tools().filter((tool) =>
      tool.name === RESOLVE_TOOL_NAME ? hasPending : !tool.hidden || exposes(tool.name),
    );
  }

  /** `{ type: "tool", name: "resolve" }` while anything is pending; otherwise the configured choice. */
  toolChoice(): ToolChoice {
    return currentToolChoice(this.#config.toolChoice, this.pending.hasPending);
  }

  /**
   * Runs one tool call. Never throws for the tool's or the call's fault: an unknown tool,
   * invalid arguments, a call refused by the pending policy, a throw, an abort, a timeout
   * (`executeTimeoutMs`), a malformed result or a disposed session all come back as an
   * `isError` result that tells the model what to do. Text beyond `maxResultChars` is cut
   * with a marker; faults that do not change the result are emitted as `tool-call-fault`.
   * Never rejects: the call's fields are read once, and a call the session cannot read (a
   * name that is not a string, a throwing getter) is answered with an error result too.
   *
   * The tool runs in its call's scope: `ctx.pushPendingAction` and `pi.pushPendingAction`
   * stage onto this session, and the `reminder` of each action they staged (and still
   * pending) comes after the call's `tool-call-end`, with its `toolCallId`.
   */
  execute(call: ToolCall): Promise<AgentToolResult> {
    const reading = readToolCall(call);
    if (!reading.ok)
      return promiseResolve(failed(toolCallMessages.unreadableCall(reading.name, reading.problem)).result);
    // One promise per call, settled by the pipeline's callback (see `startToolCall`).
    return new PromiseIntrinsic((resolve) => this.#run(reading.call, resolve));
  }

  /** The body of {@link Session.execute}: runs `call` and resolves with its answer; never throws. */
  #run(call: ToolCall, resolve: (result: AgentToolResult) => void): void {
    const { toolCallId, name, params } = call;
    const emitter = this.#emitter;
    const slot: ScopeSlot = { scope: undefined };
    let answered = false;
    const answer = (result: AgentToolResult): void => {
      if (answered) return;
      answered = true;
      // A durable store that keeps what the call staged later (PostgreSQL): answer once it
      // has, so the action outlives this process when the caller sees the answer.
      const staged = slot.scope?.staged;
      const flushing = staged === undefined ? undefined : storeInternals(this.pending).flushing(staged);
      if (flushing === undefined) finish(result);
      else
        flushing.then(
          () => finish(result),
          (error: unknown) => finish(unkeptResult(result, error)),
        );
    };
    const finish = (result: AgentToolResult): void => {
      try {
        if (emitter.hasListeners) {
          const { error } = slot;
          emitter.emit({
            type: "tool-call-end",
            toolCallId,
            name,
            result,
            ...(error === undefined ? {} : { error }),
          });
        }
        const staged = slot.scope?.takeStaged();
        if (staged !== undefined) this.#remind(staged, toolCallId);
      } catch {
        // Not reached: the emitter contains its listeners' faults. Kept so the call answers.
      }
      resolve(result);
    };
    try {
      if (emitter.hasListeners) emitter.emit({ type: "tool-call-start", toolCallId, name, params });
      const refused = startToolCall(this.#execute, call, slot, answer);
      if (refused !== undefined) answer(refused);
    } catch (error) {
      // Not reached by any known fault: every step contains its own. Kept so `execute` always answers.
      answer(failed(toolCallMessages.internalFault(name, error)).result);
    }
  }

  /**
   * Adds a listener for every {@link SessionEvent}; returns the function that removes it (a
   * listener added twice is called once; a remover called late never ends a later subscription).
   */
  subscribe(listener: SessionListener): () => void {
    return this.#emitter.subscribe(listener);
  }

  /**
   * Sends `{ reason: "start" }` to every tool's `onSession`, in order, waiting for each at
   * most `resolveTimeoutMs` (a hook that does not settle in time is reported as
   * `tool-hook-failed`). Idempotent.
   */
  async start(): Promise<void> {
    if (this.#state !== "new") return;
    this.#state = "started";
    await this.#track(
      notifyTools(
        this.tools(),
        this.#event("start"),
        this.#lifecycleContext,
        this.#onHookFault,
        this.#config.resolveTimeoutMs,
      ),
    );
  }

  /**
   * Stops the calls in flight (each answers that the session was disposed) and refuses
   * later ones, discards every pending action (reason `session disposed`, calling each
   * `reject`), then sends `{ reason: "shutdown" }` to every tool's `onSession`. Idempotent.
   *
   * Always settles and never rejects: it waits for the `start` hooks still running, the
   * `reject`s (all at once) and each `shutdown` hook at most `resolveTimeoutMs` apiece, and
   * gives up on whatever has not settled by then (reported as events; see `resolveTimeoutMs`).
   */
  async dispose(): Promise<void> {
    if (this.#state === "disposed") return;
    this.#state = "disposed";
    this.#inFlight.close();
    this.#deadlines.close();
    const timeoutMs = this.#config.resolveTimeoutMs;
    await settleWithin(() => Promise.all(this.#hooksInFlight), timeoutMs);
    // A durable store keeps its durable actions for the next process (see `release`).
    await this.pending.release("session disposed", { timeoutMs });
    await notifyTools(
      this.tools(),
      this.#event("shutdown"),
      this.#lifecycleContext,
      this.#onHookFault,
      timeoutMs,
    );
    this.#unsubscribePending();
  }

  /** The reminders of the actions a call staged, those still pending, in push order. */
  #remind(staged: PendingActionRecord[], toolCallId: string): void {
    const pending = this.pending.list();
    for (const record of staged) {
      if (pending.includes(record))
        this.#emitter.emit({ type: "reminder", text: reminderText(record), record, toolCallId });
    }
  }

  /** `shutdown` for an unregistered tool, once the calls it was running have ended. */
  async #shutDownRemoved(tool: CustomTool, callsEnded: Promise<void> | undefined): Promise<void> {
    const timeoutMs = this.#config.resolveTimeoutMs;
    if (callsEnded !== undefined) await settleWithin(() => callsEnded, timeoutMs);
    await notifyTool(tool, this.#event("shutdown"), this.#lifecycleContext, this.#onHookFault, timeoutMs);
  }

  readonly #onHookFault: HookFaultHandler = (toolName, event, error) => {
    this.#emitter.emit({ type: "tool-hook-failed", toolName, event, error });
  };

  /** A lifecycle event as pi sent it: the reason, the conversation so far, the session file. */
  #event(reason: "start" | "shutdown"): CustomToolSessionEvent {
    return { reason, ...sessionEventDetails(this.#conversation) };
  }

  #track(hook: Promise<void>): Promise<void> {
    this.#hooksInFlight.add(hook);
    return hook.finally(() => this.#hooksInFlight.delete(hook));
  }
}

/**
 * A call's answer when the durable store failed to keep what it staged: the tool's content,
 * then what happened (the action was not staged), as an error the model reads.
 */
function unkeptResult(result: AgentToolResult, error: unknown): AgentToolResult {
  return {
    ...result,
    content: [...result.content, { type: "text", text: `E_PENDING_STORE: ${describeError(error)}` }],
    isError: true,
  };
}
