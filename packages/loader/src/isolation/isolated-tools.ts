import type { PendingActionRecord, PendingActionStore, SessionToolContext } from "@tooldock/runtime";
import { runningToolCall } from "@tooldock/runtime";
import {
  ACTION_LOST,
  CALLBACK_GAVE_UP,
  callStopOf,
  count,
  pendingIds,
  RUNS_IN_TOOL_HOST,
  SafeEmitter,
  STAGED_IN_TOOL_HOST,
  STOP_THROUGH_CONTEXT,
  storeOfRecord,
} from "@tooldock/runtime/internal";
import type {
  CustomToolAPI,
  CustomToolContext,
  PendingActionHandlerContext,
  ToolUpdateCallback,
} from "@tooldock/sdk";
import {
  type AgentToolResult,
  type CustomTool,
  type CustomToolDurableAction,
  type CustomToolPendingAction,
  type CustomToolSessionEvent,
  type Diagnostic,
  errorResult,
  TooldockError,
} from "@tooldock/sdk";
import { createWarning, describeError } from "../diagnostics.js";
import { noOpUI } from "../host-api/no-op-ui.js";
import { TOOL_MESSAGE_CHANNEL, type ToolMessageEvent } from "../host-api/send-message.js";
import type { ToolHost } from "../host-api/tool-host.js";
import { type SentConversations, sendConversation } from "./conversation-sync.js";
import { hostHasUI } from "./host-has-ui.js";
import type { IsolationContext } from "./isolation-options.js";
import { jsonCopy } from "./json-copy.js";
import type { CallContext, ChildMessage, HostMessage, ToolDescriptor, WireError } from "./protocol.js";
import { proxyParameters } from "./proxy-schema.js";
import {
  failedStart,
  stoppedResult,
  type ToolHostProcess,
  type ToolHostStop,
  withPrinted,
} from "./tool-host-process.js";

/** Reported by {@link IsolatedToolHost.subscribe}. */
export type IsolatedToolHostEvent =
  | {
      type: "tool-host-started";
      pid: number | undefined;
      /**
       * What its load of the modules reported. A restart loads them anew: a module that fails
       * now says so here (a first start's are in the load's result too).
       */
      diagnostics: Diagnostic[];
    }
  | {
      type: "tool-host-stopped";
      reason: string;
      kind: ToolHostStop["kind"];
      /** The pending actions it had staged: removed from their stacks, never applied. */
      lost: PendingActionRecord[];
      /** One `W_ACTIONS_LOST` warning when actions were lost, naming each. */
      diagnostics: Diagnostic[];
    };

/** The host's own event channels (`tooldock:message`): never crossed by a tool host's emit or listen. */
const HOST_CHANNEL_PREFIX = "tooldock:";
/** Most event channels one tool host may have the host forward to it. */
const MAX_CHANNELS = 1_000;
/** Most pending actions one tool host may have staged at once. */
export const MAX_STAGED_ACTIONS = 1_000;
/** Longest payload (JSON characters) of a durable action a tool host stages. */
const MAX_DURABLE_PAYLOAD_CHARS = 1_000_000;
/** How long an `onSession` hook keeps the host alive at most (the store's default deadline). */
const BOUNDED_KEEP_ALIVE_MS = 600_000;
/** How many ended calls the host remembers for a late `pi.sendMessage` (see `#ended`). */
const MAX_ENDED_CALLS = 1_000;
const CLOSED: ToolHostStop = { kind: "closed", reason: "The host closed it." };

/** A tool host that reported its tools, with what it sent before that. */
export interface StartedToolHost {
  process: ToolHostProcess;
  loaded: Extract<ChildMessage, { t: "loaded" }>;
  early: ChildMessage[];
}

/** What a call in flight needs when the tool host talks about it. */
interface CallState {
  toolName: string;
  ctx: SessionToolContext | undefined;
  running: ReturnType<typeof runningToolCall>;
  onUpdate: ToolUpdateCallback | undefined;
}

/** An action the tool host staged: where its record lives, so a stop can remove it. */
interface StagedAction {
  process: ToolHostProcess;
  childId: number;
  record: PendingActionRecord | undefined;
  store: PendingActionStore | undefined;
  /** How many of its applies or rejects are running: off the stack, still the tool host's to lose. */
  settling?: number;
  /** Its apply or reject found the tool host stopped: the stop's event lists it as lost. */
  lostInSettle?: boolean;
  /** It left its stack while its apply ran (one that timed out): a failed apply does not keep it. */
  left?: boolean;
}

/**
 * The host's side of an isolated load: the tool host process (started again after a stop,
 * unless `restart` is off), the proxies registered in the session, and the pending actions
 * the tool host staged. Every proxy call goes through here.
 */
export class IsolatedToolHost {
  readonly #start: () => Promise<StartedToolHost>;
  readonly #host: ToolHost;
  /** The host's `pi`: its logger, and its UI read when a tool asks. */
  readonly #api: CustomToolAPI;
  readonly #isolation: IsolationContext;
  /** A listener's fault, thrown or rejected, is its own. */
  readonly #listeners = new SafeEmitter<IsolatedToolHostEvent>(() => {});
  readonly #calls = new Map<number, CallState>();
  /**
   * Who made each call that ended lately (the current tool host's, by request id): a tool's
   * `pi.sendMessage` from a timer after its call returned still names the call, as in-process.
   */
  readonly #ended = new Map<number, { sessionId: string; toolCallId: string; toolName: string }>();
  /** The apply and reject requests in flight, by request id: the session that resolves each. */
  readonly #settling = new Map<number, string | undefined>();
  /**
   * The durable actions its tool hosts staged, until their store no longer has them: a tool
   * host started again counts on from its predecessor's (the actions outlive it).
   */
  #durable: Array<{ store: PendingActionStore; id: string }> = [];
  /** The stores it hears from while an action staged here is on their stack (see `#left`), and each one's remover. */
  readonly #watching = new Map<PendingActionStore, () => void>();
  /** What each tool host was last told of the UI outside any call (`ui-state`). */
  readonly #uiSent = new WeakMap<ToolHostProcess, boolean>();
  /** What each tool host was sent of each session's conversation (see `sendConversation`). */
  readonly #conversations = new WeakMap<ToolHostProcess, SentConversations>();
  readonly #staged = new Set<StagedAction>();
  #process: ToolHostProcess | undefined;
  #starting: Promise<ToolHostProcess> | undefined;
  #closed = false;
  #retiring = false;

  constructor(start: () => Promise<StartedToolHost>, host: ToolHost, isolation: IsolationContext) {
    this.#start = start;
    this.#host = host;
    this.#api = host.createAPI();
    this.#isolation = isolation;
  }

  /** The running tool host's process id, if one runs. */
  get pid(): number | undefined {
    return this.#process?.stopped === false ? this.#process.pid : undefined;
  }

  /**
   * Resolves `true` once the running tool host has run `ms` of its own timers from now (every
   * timer its modules set for sooner has fired), `false` when none runs or it stopped first; one
   * silent for the hang timeout after that is stopped as hung. Measured by the tool host's
   * timers, not the host's clock: on a busy machine it may be scheduled late.
   */
  settled(ms: number): Promise<boolean> {
    return this.#process?.probe(`it ran ${ms} ms of its timers`, ms) ?? Promise.resolve(false);
  }

  /** Listens to the tool host starting and stopping; returns the function that stops listening. */
  subscribe(listener: (event: IsolatedToolHostEvent) => void): () => void {
    return this.#listeners.subscribe(listener);
  }

  /** Stops the tool host (its pending actions are lost) and starts no other. */
  async close(): Promise<void> {
    this.#closed = true;
    // A tool host starting now is killed as soon as it has started (see #current).
    await this.#starting?.catch(() => {});
    await this.#process?.kill(CLOSED);
    for (const remove of this.#unlisten.splice(0)) remove();
    for (const remove of this.#watching.values()) remove();
    this.#watching.clear();
  }

  /**
   * Closes the tool host once its calls have answered and no action it staged is pending (at
   * once when none), and starts no other: for a tool host whose tools a reload replaced.
   */
  retire(): void {
    this.#retiring = true;
    this.#closeIfRetired();
  }

  #closeIfRetired(): void {
    if (this.#retiring && this.#staged.size === 0 && this.#calls.size === 0 && !this.#closed)
      void this.close();
  }

  /** The proxy standing in for `descriptor` in the host's session. */
  proxy(descriptor: ToolDescriptor): CustomTool {
    const execute: CustomTool["execute"] = (toolCallId, params, onUpdate, ctx, signal) =>
      this.#call(descriptor.name, toolCallId, params, onUpdate, ctx, signal);
    // Marked so that a session creates no `AbortSignal` for its calls (with it, a call cost the
    // host 30–40 µs more CPU on Node 20, ~10 µs on Node 24): the proxy hears of a stop through
    // the call's context instead (`callStopOf(ctx)`, which also holds when a host registers the
    // proxy, or a copy of it, under another name), and still uses a signal a direct caller
    // passes. A host's own wrapper around `execute` is not marked: the session gives it a
    // signal when it can see one, for it to pass on.
    Object.defineProperty(execute, STOP_THROUGH_CONTEXT, { value: true });
    const tool: CustomTool = {
      name: descriptor.name,
      label: descriptor.label,
      description: descriptor.description,
      parameters: proxyParameters(descriptor.parameters),
      execute,
    };
    if (descriptor.hidden) tool.hidden = true;
    if (descriptor.deferrable) tool.deferrable = true;
    if (descriptor.annotations !== undefined) tool.annotations = descriptor.annotations;
    if (descriptor.outputSchema !== undefined) tool.outputSchema = proxyParameters(descriptor.outputSchema);
    if (descriptor.onSession) tool.onSession = (event, ctx) => this.#session(descriptor.name, event, ctx);
    if (descriptor.liveDescription === true) this.#liveDescription(tool, descriptor.description);
    if (descriptor.actions !== undefined)
      tool.actions = this.#proxyActions(descriptor.name, descriptor.actions);
    return tool;
  }

  /**
   * The handlers of a tool's durable actions, each run by the tool host (a fresh one when the
   * last has stopped): a durable action is data, so it outlives the tool host that staged it.
   * A tool host that stops while running one fails the apply, which keeps the action pending.
   * Each is marked `RUNS_IN_TOOL_HOST`: the session lets it apply what a tool host staged.
   */
  #proxyActions(tool: string, declared: Record<string, { reject: boolean }>): CustomTool["actions"] {
    const handlers: NonNullable<CustomTool["actions"]> = {};
    for (const [handler, { reject }] of Object.entries(declared)) {
      const run =
        (callback: "apply" | "reject") =>
        async (payload: unknown, reason: string, ctx: PendingActionHandlerContext) => {
          const process = await this.#running();
          const { sessionId, cwd, actionId, label } = ctx;
          const context = { sessionId, cwd, actionId, label };
          const action = { t: "action", tool, handler, callback, payload, reason, context } as const;
          const message = await this.#resolving(process, action);
          return answerOf(message, `The tool host stopped while it ran the ${callback}.`);
        };
      const proxy = reject ? { apply: run("apply"), reject: run("reject") } : { apply: run("apply") };
      handlers[handler] = Object.defineProperty(proxy, RUNS_IN_TOOL_HOST, { value: true });
    }
    return handlers;
  }

  /**
   * A description the tool host reads from a getter: each read gives the one fetched last and
   * asks for the current one (one question at a time), so a host listing the tools again sees
   * what the getter gave at its previous listing; a stopped tool host or a bad answer keeps it.
   */
  #liveDescription(tool: CustomTool, loaded: string): void {
    let last = loaded;
    let asking = false;
    Object.defineProperty(tool, "description", {
      enumerable: true,
      get: () => {
        const process = this.#process;
        if (!asking && process !== undefined && !process.stopped) {
          asking = true;
          // Never keeps the host alive: nothing waits for the answer but the next read.
          const { reply } = process.request((id) => ({ t: "describe", id, tool: tool.name }), {
            keepAliveMs: 0,
          });
          void reply.then((message) => {
            asking = false;
            if ("t" in message && message.t === "result") {
              const [block] = message.result.content;
              if (block?.type === "text") last = block.text;
            }
          });
        }
        return last;
      },
    });
  }

  /** The running tool host (a fresh one when the last stopped); throws when none can run. */
  async #running(): Promise<ToolHostProcess> {
    const process = await this.#current();
    if (!("request" in process)) throw new Error(`The tool host stopped. ${process.reason}`);
    return process;
  }

  async #current(): Promise<ToolHostProcess | ToolHostStop> {
    const process = this.#process;
    if (process !== undefined && !process.stopped) return process;
    if (this.#closed || this.#retiring) return CLOSED;
    if (!this.#isolation.restart && process !== undefined)
      return { kind: "exit", reason: "It is not restarted (isolation.restart is false)." };
    this.#starting ??= this.#start()
      .then(async (started) => {
        if (this.#closed) await started.process.kill(CLOSED);
        else this.adopt(started);
        return started.process;
      })
      .finally(() => {
        this.#starting = undefined;
      });
    try {
      const started = await this.#starting;
      return started.stopped ? CLOSED : started;
    } catch (error) {
      // Said as a load says it (E_TOOL_HOST), and of the kind of its stop: a start failure is no tool's fault.
      const { stop, stderr } = failedStart(error);
      return {
        kind: stop.kind,
        reason: `A new one stopped before it reported its tools. ${withPrinted(stop, stderr)}`,
      };
    }
  }

  /** Takes a started process (the load's first, or a restart) and the messages it sent while loading. */
  adopt({ process, early, loaded }: StartedToolHost): void {
    this.#process = process;
    this.#ended.clear(); // a new tool host numbers its requests from 1 again
    process.onMessage = (message) => this.#message(process, message);
    if (this.#isolation.onOutput !== undefined) process.onOutput = this.#isolation.onOutput;
    process.onStop((stop) => this.#stopped(process, stop));
    this.#listeners.emit({ type: "tool-host-started", pid: process.pid, diagnostics: loaded.diagnostics });
    for (const message of early) this.#message(process, message);
  }

  /**
   * A proxy's call. With a tool host running, the request is written in this synchronous
   * part, after everything the reply needs is in place: once written, the tool host runs, and
   * on a machine with few cores it may run only once this process has gone idle.
   */
  #call(
    name: string,
    toolCallId: string,
    params: unknown,
    onUpdate: ToolUpdateCallback | undefined,
    ctx: CustomToolContext,
    signal: AbortSignal | undefined,
  ): Promise<AgentToolResult> {
    // Read now: the call's scope is the current one only in this synchronous part.
    const call: CallState = {
      toolName: name,
      ctx: ctx as SessionToolContext,
      running: runningToolCall(),
      onUpdate,
    };
    const read = callContext(ctx, hostHasUI(this.#host, call.running?.sessionId));
    const process = this.#process;
    if (process !== undefined && !process.stopped)
      return this.#request(process, call, toolCallId, params, read, signal);
    return this.#current().then((started) => {
      if (!("request" in started)) return stoppedResult(name, started);
      return this.#request(started, call, toolCallId, params, read, signal);
    });
  }

  async #request(
    process: ToolHostProcess,
    call: CallState,
    toolCallId: string,
    params: unknown,
    read: ReadContext,
    signal: AbortSignal | undefined,
  ): Promise<AgentToolResult> {
    const name = call.toolName;
    // A session's call gets no signal (see `proxy`): its stop is heard through its ctx.
    const stop = signal === undefined ? callStopOf(call.ctx) : undefined;
    if (signal?.aborted || stop?.ended === true)
      return stoppedResult(name, { kind: "closed", reason: "The call was stopped." });
    let id = -1;
    let answered = false;
    const onAbort = () => {
      if (answered) return; // stopped after its reply came: nothing is left to stop
      process.send({ t: "abort", id });
      process.forget(id); // the call answers now; whatever the tool host sends later is dropped
      process.probe();
    };
    this.#syncUI(process);
    const { reply } = this.#requestWith(process, read, (requestId, context) => {
      id = requestId;
      this.#calls.set(id, call);
      if (signal !== undefined) signal.addEventListener("abort", onAbort, { once: true });
      else stop?.onStop(onAbort);
      return { t: "call", id, tool: name, toolCallId, params, context, updates: call.onUpdate !== undefined };
    });
    try {
      const message = await reply;
      if (!("t" in message)) return stoppedResult(name, message);
      if (message.t === "error") throw rebuildError(message.error);
      if (message.t === "result") return message.result;
      return stoppedResult(name, { kind: "protocol", reason: "It answered a call with a ping." });
    } finally {
      answered = true;
      signal?.removeEventListener("abort", onAbort);
      this.#calls.delete(id);
      this.#closeIfRetired(); // a retired tool host lets its last call answer first
      const by = madeBy(call);
      if (by !== undefined) {
        this.#ended.set(id, by);
        if (this.#ended.size > MAX_ENDED_CALLS) this.#ended.delete(this.#ended.keys().next().value as number);
      }
    }
  }

  async #session(name: string, event: CustomToolSessionEvent, ctx: CustomToolContext): Promise<void> {
    const process = await this.#running();
    const read = callContext(ctx, hostHasUI(this.#host, runningToolCall()?.sessionId));
    const { reply } = this.#requestWith(
      process,
      read,
      (id, context) => ({ t: "session", id, tool: name, event: jsonCopy(event), context }),
      // The session gives a hook that long at most (its own deadline keeps the host alive).
      { keepAliveMs: BOUNDED_KEEP_ALIVE_MS },
    );
    answerOf(await reply, "The tool host stopped.");
  }

  #message(process: ToolHostProcess, message: ChildMessage): void {
    try {
      if (message.t === "update") this.#calls.get(message.id)?.onUpdate?.(message.partial);
      else if (message.t === "push") this.#push(process, message);
      else if (message.t === "call-abort") this.#calls.get(message.id)?.ctx?.abort();
      else if (message.t === "ui") this.#ui(process, message);
      else if (message.t === "message") this.#sendMessage(message);
      else if (message.t === "listen") this.#listen(process, message.channel);
      else if (message.t === "log") this.#api.logger[message.level](message.message, message.data);
      else if (message.t === "emit") this.#forwardEmit(message.channel, message.data);
      // "loaded": only the first one counts, and the load took it.
    } catch (error) {
      // The host's own listener, logger or UI threw: its fault stays on the host's side, as it
      // would for a tool in-process, and the tool host serves on.
      this.#warn(`A tool host message (${message.t}) failed in the host: ${describeError(error)}`);
    }
  }

  /**
   * A tool host's `pi.events.emit`, to the host's listeners. Never on the host's own channels
   * (pi.sendMessage's), which carry what the host vouches for: a tool host reaches them only
   * through "message", which the host attributes itself.
   */
  #forwardEmit(channel: string, data: unknown): void {
    if (channel.startsWith(HOST_CHANNEL_PREFIX)) return;
    this.#emitting = true;
    try {
      this.#host.events.emit(channel, data);
    } finally {
      this.#emitting = false;
    }
  }

  #warn(text: string): void {
    try {
      this.#api.logger.warn(text);
    } catch {
      // A logger that throws has nobody left to tell.
    }
  }

  #emitting = false;
  readonly #listened = new Set<string>();
  readonly #unlisten: Array<() => void> = [];

  /**
   * Forwards a host channel to the tool host: never the host's own `tooldock:` channels, none
   * once closed, and past {@link MAX_CHANNELS} the tool host is stopped (a module naming a new
   * channel each time would grow the host's bus without end).
   */
  #listen(process: ToolHostProcess, channel: string): void {
    if (this.#listened.has(channel) || channel.startsWith(HOST_CHANNEL_PREFIX) || this.#closed) return;
    if (this.#listened.size >= MAX_CHANNELS) {
      process.breach(`It listened on more than ${MAX_CHANNELS} event channels.`);
      return;
    }
    this.#listened.add(channel);
    this.#unlisten.push(
      this.#host.events.on(channel, (data) => {
        if (!this.#emitting) this.#process?.send({ t: "event", channel, data: jsonCopy(data) });
      }),
    );
  }

  /** `pi.sendMessage` of a tool: the session, call and tool are the host's own record of the call. */
  #sendMessage(message: Extract<ChildMessage, { t: "message" }>): void {
    const id = message.call;
    const running = id === undefined ? undefined : this.#calls.get(id);
    const by = running === undefined ? (id === undefined ? undefined : this.#ended.get(id)) : madeBy(running);
    const event: ToolMessageEvent = {
      message: message.message as ToolMessageEvent["message"],
      ...(message.options === undefined ? {} : { options: message.options }),
      ...(by === undefined ? {} : by),
    };
    this.#host.events.emit(TOOL_MESSAGE_CHANNEL, event);
  }

  /** A `pi.ui` question of the tool host, answered by the UI of the session whose call asked. */
  #ui(process: ToolHostProcess, message: Extract<ChildMessage, { t: "ui" }>): void {
    const asker = message.call;
    const sessionId =
      asker === undefined ? undefined : (this.#calls.get(asker)?.ctx?.sessionId ?? this.#settling.get(asker));
    const answer = (value: unknown, error?: string) =>
      process.send({ t: "ui-reply", id: message.id, ...(error === undefined ? { value } : { error }) });
    let asked: unknown;
    try {
      // A UI source that throws answers with its error, as a UI that throws does.
      const ui = this.#host.uiFor(sessionId) ?? noOpUI;
      asked = (ui[message.method] as (...args: unknown[]) => unknown)(...message.args);
    } catch (error) {
      if (message.method !== "notify") answer(undefined, describeError(error));
      return;
    }
    if (message.method === "notify") return;
    Promise.resolve(asked).then(
      (value) => answer(value),
      (error: unknown) => answer(undefined, describeError(error)),
    );
  }

  #push(process: ToolHostProcess, message: PushMessage): void {
    const call = message.call === undefined ? undefined : this.#calls.get(message.call);
    if (message.handler !== undefined) {
      this.#pushDurable(process, call, message);
      return;
    }
    const staged: StagedAction = { process, childId: message.action, record: undefined, store: undefined };
    // When a resolve gives up waiting for one (its deadline), the tool host must still answer
    // a ping: one stuck in a busy loop is stopped now, not when the next call times out.
    const settle = (kind: "apply" | "reject") =>
      Object.defineProperty((reason: string) => this.#settle(staged, kind, reason), CALLBACK_GAVE_UP, {
        value: () => process.probe(`its ${kind} was given up`),
      });
    const action: CustomToolPendingAction = {
      label: message.label,
      apply: settle("apply"),
      ...(message.reject ? { reject: settle("reject") } : {}),
      ...(message.details === undefined ? {} : { details: message.details }),
      ...(message.sourceToolName === undefined ? {} : { sourceToolName: message.sourceToolName }),
    };
    try {
      if (call !== undefined) staged.record = pushInCall(call, message.via, action);
      else if (message.call === undefined)
        staged.record = this.#host.activeSession?.pending.push(action) as PendingActionRecord | undefined;
      // Also a host's own context's store, when it calls a proxy outside a Session's call.
      if (staged.record !== undefined) staged.store = storeOfRecord(staged.record);
    } catch (error) {
      // Refused (the call ended, a bad action): the tool host forgets it, as the store did.
      this.#warn(describeError(error));
    }
    if (staged.record === undefined) {
      process.send({ t: "forget", action: message.action });
      return;
    }
    this.#staged.add(staged);
    this.#watch(staged.store);
    // Only the running tool host's actions are here: a stopped one's went with it.
    if (this.#staged.size > MAX_STAGED_ACTIONS)
      process.breach(`It has more than ${MAX_STAGED_ACTIONS} pending actions staged.`);
  }

  /**
   * A durable action: data the session's store keeps, so it outlives the tool host. Only during
   * a call of one of its tools (the store binds it to that tool's handlers, refusing another
   * tool's name), with at most {@link MAX_DURABLE_PAYLOAD_CHARS} characters of JSON as payload,
   * and at most {@link MAX_STAGED_ACTIONS} of one tool host pending at once.
   */
  #pushDurable(process: ToolHostProcess, call: CallState | undefined, message: PushMessage) {
    const refuse = (why: string) =>
      this.#warn(`The tool host staged the durable action ${JSON.stringify(message.label)} ${why}: refused.`);
    if (call === undefined) return refuse("outside a call");
    const size = JSON.stringify(message.payload ?? null).length;
    if (size > MAX_DURABLE_PAYLOAD_CHARS)
      return refuse(`with a payload of ${size} characters (at most ${MAX_DURABLE_PAYLOAD_CHARS})`);
    // Durable actions leave their stack in ways no event tells (a session's release, a refresh
    // after another process resolved them): the stores are asked, once the count matters.
    // Still pending: on its stack, or held by a resolve that puts it back if its apply fails;
    // each store's ids read once (a record's id is unique within its store only).
    if (this.#durable.length >= MAX_STAGED_ACTIONS) {
      const pending = new Map<PendingActionStore, Set<string>>();
      this.#durable = this.#durable.filter(({ store, id }) => {
        if (!pending.has(store)) pending.set(store, pendingIds(store));
        return pending.get(store)?.has(id) === true;
      });
    }
    if (this.#durable.length >= MAX_STAGED_ACTIONS)
      return process.breach(`It has more than ${MAX_STAGED_ACTIONS} durable actions pending.`);
    const action: CustomToolDurableAction = {
      label: message.label,
      handler: message.handler as string,
      payload: message.payload,
      ...(message.details === undefined ? {} : { details: message.details }),
      ...(message.sourceToolName === undefined ? {} : { sourceToolName: message.sourceToolName }),
    };
    // Its record says it was staged here: whoever applies it later runs its handler in a tool host.
    Object.defineProperty(action, STAGED_IN_TOOL_HOST, { value: true });
    let record: PendingActionRecord | undefined;
    try {
      record = pushInCall(call, message.via, action);
    } catch (error) {
      this.#warn(describeError(error));
    }
    // Refused, it counts for nothing.
    const store = record === undefined ? undefined : storeOfRecord(record);
    if (record !== undefined && store !== undefined) this.#durable.push({ store, id: record.id });
  }

  /**
   * Hears when an action leaves `store`'s stack (see `#left`) while an action staged here is on
   * it: a server's store of each conversation is let go with its last one (see `#unstage`).
   */
  #watch(store: PendingActionStore | undefined): void {
    if (store === undefined || this.#watching.has(store)) return;
    const remove = store.subscribe((event) => {
      if (event.type === "action-applied" || event.type === "action-discarded")
        this.#left(store, event.record.id);
    });
    this.#watching.set(store, remove);
  }

  /** Takes `staged` off the count; the last of its store's lets the store go. */
  #unstage(staged: StagedAction): void {
    this.#staged.delete(staged);
    const { store } = staged;
    if (store === undefined) return;
    for (const other of this.#staged) if (other.store === store) return;
    this.#watching.get(store)?.();
    this.#watching.delete(store);
  }

  /**
   * An action left `store`'s stack. One whose apply or reject ran through the tool host was
   * settled by `#settle`; one that left without (the host's `pop()` or `remove()`, a failed
   * journal) can never run: the tool host forgets it, it no longer counts toward the cap, and a
   * retired tool host may close. One whose timed-out apply still runs is forgotten if it fails.
   */
  #left(store: PendingActionStore, id: string): void {
    for (const staged of this.#staged) {
      if (staged.store !== store || staged.record?.id !== id || staged.lostInSettle === true) continue;
      if ((staged.settling ?? 0) > 0) {
        staged.left = true;
        continue;
      }
      this.#forget(staged);
      this.#closeIfRetired();
    }
  }

  #forget(staged: StagedAction): void {
    this.#unstage(staged);
    staged.process.send({ t: "forget", action: staged.childId });
  }

  /**
   * Sends a request a resolve makes (an apply, a reject, a durable action's handler) and waits
   * for its answer: the resolving session's UI answers what the callback asks through `pi.ui`.
   * Whoever waits (a resolve, with its deadline's timer) keeps the host alive; once it gives
   * up, this request does not: the host may then exit.
   */
  #resolving(
    process: ToolHostProcess,
    message: ResolveMessage,
  ): ReturnType<ToolHostProcess["request"]>["reply"] {
    this.#syncUI(process);
    const sessionId = runningToolCall()?.sessionId;
    const hasUI = hostHasUI(this.#host, sessionId);
    const { id, reply } = process.request((id) => ({ ...message, id, hasUI }), { keepAliveMs: 0 });
    this.#settling.set(id, sessionId);
    return reply.finally(() => this.#settling.delete(id));
  }

  async #settle(staged: StagedAction, kind: "apply" | "reject", reason: string): Promise<AgentToolResult> {
    staged.settling = (staged.settling ?? 0) + 1;
    let message: Awaited<ReturnType<ToolHostProcess["request"]>["reply"]>;
    try {
      message = await this.#resolving(staged.process, { t: kind, action: staged.childId, reason });
    } finally {
      staged.settling -= 1;
    }
    if (!("t" in message)) {
      // Counted by the stop's event (see #stopped), whether the process has exited yet or not.
      staged.lostInSettle = true;
      if (staged.process.exited) this.#unstage(staged);
      // An apply: the Session discards the action instead of putting it back (ACTION_LOST).
      if (kind === "apply") {
        const lost = new Error(`The tool host that staged it stopped. ${message.reason}`);
        throw Object.defineProperty(lost, ACTION_LOST, { value: true });
      }
      const label = staged.record === undefined ? "the action" : JSON.stringify(staged.record.label);
      return errorResult(
        `Cannot apply ${label}: the tool host that staged it stopped. ${message.reason} The action is lost and was removed.`,
      );
    }
    // A failed apply stays staged: it may be applied again.
    const failed = message.t === "error" || (message.t === "result" && message.result.isError === true);
    if (kind === "reject" || !failed) this.#unstage(staged);
    else if (staged.left === true) this.#forget(staged);
    this.#closeIfRetired();
    return answerOf(message, "");
  }

  /**
   * `process.request` of the message `build` makes with `read`'s context, carrying the
   * conversation its tool host has not seen (recorded as seen once the message is written).
   */
  #requestWith(
    process: ToolHostProcess,
    read: ReadContext,
    build: (id: number, context: CallContext) => HostMessage,
    options?: { keepAliveMs?: number },
  ): ReturnType<ToolHostProcess["request"]> {
    const conversations: SentConversations = this.#conversations.get(process) ?? new Map();
    this.#conversations.set(process, conversations);
    let written: (() => void) | undefined;
    const request = process.request((id) => {
      const context = { ...read.context };
      written = sendConversation(conversations, context, read.entries, read.branch);
      return build(id, context);
    }, options);
    written?.();
    return request;
  }

  /**
   * Tells the tool host, when it changed, whether the host has a UI outside any call (a factory's
   * or a timer's `pi.hasUI`): a host may attach one after the load. Each call and apply carries
   * its own session's answer besides.
   */
  #syncUI(process: ToolHostProcess): void {
    const hasUI = hostHasUI(this.#host, undefined);
    if (this.#uiSent.get(process) === hasUI) return;
    this.#uiSent.set(process, hasUI);
    process.send({ t: "ui-state", hasUI });
  }

  #stopped(process: ToolHostProcess, stop: ToolHostStop): void {
    if (this.#process === process) this.#process = undefined;
    const lost: PendingActionRecord[] = [];
    for (const staged of [...this.#staged]) {
      if (staged.process !== process) continue;
      this.#unstage(staged);
      const { record } = staged;
      if (record === undefined) continue;
      // Taken off its stack as lost; one being applied or discarded is off the stack already,
      // and its resolve says it was lost.
      const removed = staged.store?.remove(record.id, `lost: the tool host stopped. ${stop.reason}`);
      if (removed !== undefined || (staged.settling ?? 0) > 0 || staged.lostInSettle === true)
        lost.push(record);
    }
    const diagnostics: Diagnostic[] =
      lost.length === 0
        ? []
        : [
            createWarning("W_ACTIONS_LOST", {
              message:
                `The tool host stopped with ${count(lost.length, "pending action")} it had staged: ` +
                `${lost.map((record) => JSON.stringify(record.label)).join(", ")}. ${stop.reason} ` +
                "They were removed from the stack and can never be applied.",
              path: "(tool host)",
              hint: "Call the tools again to stage them anew.",
            }),
          ];
    this.#listeners.emit({
      type: "tool-host-stopped",
      reason: stop.reason,
      kind: stop.kind,
      lost,
      diagnostics,
    });
  }
}

type PushMessage = Extract<ChildMessage, { t: "push" }>;

/** A request a resolve makes, but for its id and `hasUI` (see `#resolving`). */
type ResolveMessage =
  | { t: "apply" | "reject"; action: number; reason: string }
  | Omit<Extract<HostMessage, { t: "action" }>, "id" | "hasUI">;

/** Who made a call: its session, call id and tool, from its context or the running call. */
function madeBy(call: CallState): { sessionId: string; toolCallId: string; toolName: string } | undefined {
  const source = call.ctx ?? call.running;
  return source === undefined
    ? undefined
    : { sessionId: source.sessionId, toolCallId: source.toolCallId, toolName: call.toolName };
}

/** A call's context as the host reads it when the call starts, and its conversation (see `sendConversation`). */
interface ReadContext {
  context: CallContext;
  entries?: readonly unknown[];
  branch?: readonly unknown[];
}

function callContext(ctx: CustomToolContext | undefined, hasUI: boolean): ReadContext {
  if (ctx === undefined) return { context: { sessionId: "", cwd: "", hasPendingActions: false, hasUI } };
  const context: CallContext = {
    hasUI,
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
    hasPendingActions: ctx.hasPendingActions(),
  };
  const model = jsonCopy(ctx.model);
  if (model !== undefined) context.model = model;
  if (ctx.isIdle !== undefined) context.isIdle = ctx.isIdle();
  if (ctx.hasQueuedMessages !== undefined) context.hasQueuedMessages = ctx.hasQueuedMessages();
  const manager = ctx.sessionManager;
  if (manager === undefined) return { context };
  const file = manager.getSessionFile();
  if (file !== undefined) context.sessionFile = file;
  // Copied and sent when the message goes, only what its tool host has not seen.
  return { context, entries: manager.getEntries(), branch: manager.getBranch() };
}

/** A request's result (empty for a `pong`); throws its error, or `stopped` and why when it stopped. */
function answerOf(message: ChildMessage | ToolHostStop, stopped: string): AgentToolResult {
  if (!("t" in message)) throw new Error(`${stopped} ${message.reason}`);
  if (message.t === "error") throw rebuildError(message.error);
  return message.t === "result" ? message.result : { content: [] };
}

/** A tool host's error, as a host-side error with the same name, message, code and stack. */
function rebuildError(wire: WireError): Error {
  const error =
    wire.code !== undefined && /^E_[A-Z_]+$/.test(wire.code)
      ? new TooldockError(wire.code as never, wire.message)
      : new Error(wire.message);
  if (wire.name !== undefined)
    Object.defineProperty(error, "name", { value: wire.name, configurable: true, writable: true });
  if (wire.code !== undefined)
    Object.defineProperty(error, "code", { value: wire.code, configurable: true, writable: true });
  error.stack = wire.stack ?? `${wire.name ?? "Error"}: ${wire.message}`;
  return error;
}

/** Stages `action` in the call's session: through its `ctx` when the child used it, else its `pi`. */
function pushInCall(
  call: CallState,
  via: PushMessage["via"],
  action: CustomToolPendingAction | CustomToolDurableAction,
): PendingActionRecord | undefined {
  return via === "ctx" && call.ctx !== undefined
    ? call.ctx.pushPendingAction(action)
    : call.running?.pushPendingAction(action);
}
