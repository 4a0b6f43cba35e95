// The tool host: a child process that loads untrusted tool modules and runs their tools for
// the host that started it (see ../tool-host-process.ts). It runs under Node's permission
// model, so whatever a module does here is bounded by what the host allowed; nothing in
// this file defends against the modules it loads: the process boundary does.
import { AsyncLocalStorage } from "node:async_hooks";
import { asSchema } from "@tooldock/runtime";
import {
  type ClosureActionSnapshot,
  callApply,
  callReject,
  count,
  latePushError,
  noCallPushError,
  readCallbackResult,
  snapshotPendingAction,
} from "@tooldock/runtime/internal";
import type {
  AgentToolResult,
  CustomTool,
  CustomToolAPI,
  CustomToolDurableAction,
  CustomToolPendingAction,
  Diagnostic,
  UIContext,
} from "@tooldock/sdk";
import { writeCodeCaches } from "../../build/pack-script.js";
import { ToolHost } from "../../host-api/tool-host.js";
import { loadCustomTools } from "../../load/load-custom-tools.js";
import { type Conversation, receiveConversation } from "../conversation-sync.js";
import { crossingCopy, jsonCopy } from "../json-copy.js";
import { MAX_LINE_BYTES, MESSAGE_MARK, readLines, writeLine } from "../line-channel.js";
import type { ChildMessage, HostMessage, InitMessage, ToolDescriptor } from "../protocol.js";
import { sentence } from "../sentence.js";
import {
  type CallRunner,
  type ChildCall,
  callContext,
  currentCall,
  runCall,
  wireError,
  wireResult,
} from "./child-call.js";
import { createChildEvents } from "./child-events.js";
import { confineSignals } from "./confine-signals.js";

// The host's messages arrive on stdin and ours leave on stdout; what tools print goes to
// stderr instead (console.log included: it binds to process.stdout when first used).
const input = process.stdin;
const output = process.stdout;
Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => process.stderr });
const send = (message: ChildMessage) => writeLine(output, JSON.stringify(message), MESSAGE_MARK);
// The host went away: nobody is left to serve. The processes tools started go too (the
// tool host leads their process group).
const leave = () => {
  try {
    process.kill(-process.pid, "SIGKILL");
  } finally {
    process.exit(0);
  }
};
input.on("end", leave);
input.on("error", leave);
output.on("error", leave);

// A fault of a tool's stray code must not end every other tool: it is logged to the host.
process.on("uncaughtException", (error) => {
  send({ t: "log", level: "error", message: `Uncaught exception in the tool host: ${describe(error)}` });
});
process.on("unhandledRejection", (error) => {
  send({ t: "log", level: "error", message: `Unhandled rejection in the tool host: ${describe(error)}` });
});

function describe(error: unknown): string {
  const wire = wireError(error);
  return wire.stack ?? wire.message;
}

/** Each session's conversation as its last message gave it (see `receiveConversation`). */
const conversations = new Map<string, Conversation>();
const tools = new Map<string, CustomTool>();
const calls = new Map<number, ChildCall>();
/** The closure actions staged here, as read at push: their `apply` and `reject` are called, as in a Session. */
const actions = new Map<number, ClosureActionSnapshot>();
const uiReplies = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextAction = 0;
let nextUi = 0;

const runner: CallRunner = {
  send,
  sendResult: (id, resultText) =>
    writeLine(output, `{"t":"result","id":${id},"result":${resultText}}`, MESSAGE_MARK),
  end: (call) => calls.delete(call.id),
  stage(action, via, call) {
    if (call?.ended) throw latePushError(call, action);
    const read = snapshotPendingAction(action); // throws what the store would, in the tool's own code
    const id = nextAction++;
    if (call !== undefined) call.pending += 1;
    // A durable action is data: the host keeps it, and asks the declaring tool to run it.
    if (read.form === "closure") actions.set(id, read);
    const { label, details, sourceToolName } = read;
    send({
      t: "push",
      ...(call === undefined ? {} : { call: call.id }),
      via,
      action: id,
      label,
      ...(details === undefined ? {} : { details }),
      ...(sourceToolName === undefined ? {} : { sourceToolName }),
      reject: read.form === "closure" && read.reject !== undefined,
      ...(read.form === "data" ? { handler: read.handler, payload: read.payload } : {}),
    });
  },
};

/** The apply or reject running now: its request id, and whether the resolving session has a UI. */
const settling = new AsyncLocalStorage<{ id: number; hasUI: boolean }>();

/** Sends a `pi.ui` call to the host; throws when JSON cannot carry its arguments. */
function tellHost(method: "select" | "confirm" | "input" | "notify", args: unknown[]): number {
  const copied = crossingCopy(args, `pi.ui.${method}`) as unknown[];
  const id = nextUi++;
  // The call (or apply, reject) asking, so that the host answers with its session's UI.
  const call = currentCall.getStore()?.id ?? settling.getStore()?.id;
  send({ t: "ui", id, ...(call === undefined ? {} : { call }), method, args: copied });
  return id;
}

/** A question's answer, or its fault as a rejection (never thrown at the asking tool). */
function askHost(method: "select" | "confirm" | "input", args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => uiReplies.set(tellHost(method, args), { resolve, reject }));
}

/** `pi.ui` while the host has a user interface: each question is answered by the host's. */
const hostUI: UIContext = {
  select: (title, options) => askHost("select", [title, options]) as Promise<string | undefined>,
  confirm: (title, message) => askHost("confirm", [title, message]) as Promise<boolean>,
  input: (title, placeholder) => askHost("input", [title, placeholder]) as Promise<string | undefined>,
  // Thrown at the tool: a notice has no promise to reject.
  notify: (message, level) => void tellHost("notify", [message, level]),
};

/**
 * The tools' UI: during a call, the host's when the calling session has one (each call says);
 * outside any call (a factory, a timer), the host's when it had one last.
 */
const childUI = (): UIContext | undefined =>
  (currentCall.getStore()?.hasUI ?? settling.getStore()?.hasUI ?? uiAttached) ? hostUI : undefined;

const forward = (level: "debug" | "info" | "warn" | "error") => (message: string, data?: unknown) =>
  send({
    t: "log",
    level,
    message: String(message),
    ...(data === undefined ? {} : { data: jsonCopy(data) }),
  });

/** The `pi` of the tool host: its events reach the host, and pushes outside a call too. */
class ChildToolHost extends ToolHost {
  readonly bridge = createChildEvents(this.events, send);

  override createAPI(): CustomToolAPI {
    const api = super.createAPI();
    const own = Object.getOwnPropertyDescriptors(api);
    own.events = { value: this.bridge.events, enumerable: true };
    // Attributed by the host to the call it names (the host's own record of that call).
    own.sendMessage = {
      value: (message: unknown, options?: unknown) => {
        const call = currentCall.getStore();
        const copied = crossingCopy(message, "pi.sendMessage");
        const copiedOptions = options === undefined ? undefined : crossingCopy(options, "pi.sendMessage");
        send({
          t: "message",
          // Also after the call ended (a timer's message): the host still knows who made it.
          ...(call === undefined ? {} : { call: call.id }),
          message: copied,
          ...(copiedOptions === undefined ? {} : { options: copiedOptions }),
        });
      },
      enumerable: true,
    };
    own.pushPendingAction = {
      value: (action: CustomToolPendingAction | CustomToolDurableAction) =>
        runner.stage(action, "pi", currentCall.getStore()),
      enumerable: true,
    };
    return Object.defineProperties({}, own) as CustomToolAPI;
  }
}

function describeTool(tool: CustomTool, path: string, resolvedPath: string): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: asSchema(tool.parameters).jsonSchema,
    hidden: tool.hidden === true,
    deferrable: tool.deferrable === true,
    onSession: typeof tool.onSession === "function",
    // The session's record reads a description getter again at every use: so does the host.
    liveDescription: typeof Object.getOwnPropertyDescriptor(tool, "description")?.get === "function",
    path,
    resolvedPath,
  };
  if (tool.outputSchema !== undefined) descriptor.outputSchema = asSchema(tool.outputSchema).jsonSchema;
  if (tool.annotations !== undefined) descriptor.annotations = jsonCopy(tool.annotations) as never;
  if (tool.actions !== undefined)
    descriptor.actions = Object.fromEntries(
      Object.entries(tool.actions).map(([name, handler]) => [
        name,
        { reject: typeof handler.reject === "function" },
      ]),
    );
  return descriptor;
}

async function load(init: InitMessage): Promise<void> {
  // Before any module runs: the permission model does not cover signals.
  if (!init.allowExec) confineSignals();
  const host = new ChildToolHost({
    cwd: init.cwd,
    ui: childUI,
    logger: {
      debug: forward("debug"),
      info: forward("info"),
      warn: forward("warn"),
      error: forward("error"),
    },
  });
  hostRef = host;
  uiAttached = init.hasUI;
  const result = await loadCustomTools({
    paths: init.paths,
    cwd: init.cwd,
    host,
    // The host's packs when it built them; jiti for what they lack (no esbuild starts here).
    compiler: init.packsDir === undefined ? "jiti" : "esbuild",
    ...(init.packsDir === undefined ? {} : { packsDir: init.packsDir }),
    cacheDir: init.cacheDir,
    factoryTimeoutMs: init.factoryTimeoutMs,
    builtInToolNames: init.builtInToolNames,
    sourceMaps: init.sourceMaps,
    opencode: init.opencode === true,
  });
  // The packs' code caches are written, and the tools reported, in the turn of the event loop
  // the load ended in. Written later, they were lost when a host closed its tool host as soon
  // as it had an answer (close kills the process group), and every later start compiled the
  // packs again; reported a turn later, a callback a module started could run in between with
  // the load's exit guard off and end the tool host before it reported anything.
  writeCodeCaches();
  loadErrors = result.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  const described: ToolDescriptor[] = [];
  for (const { tool, path, resolvedPath } of result.tools) {
    tools.set(tool.name, tool);
    described.push(describeTool(tool, path, resolvedPath));
  }
  send({
    t: "loaded",
    tools: described,
    diagnostics: jsonCopy(result.diagnostics) as never,
    modules: result.modules.map(({ path, resolvedPath }) => ({ path, resolvedPath })),
  });
}

let hostRef: ChildToolHost | undefined;
/** The errors of this tool host's load. */
let loadErrors: Diagnostic[] = [];
let uiAttached = false;

/** Sends what `run` gives as the answer to request `id`, or what it threw. */
async function answer(id: number, run: () => unknown): Promise<void> {
  try {
    send({ t: "result", id, result: wireResult(await run()) });
  } catch (error) {
    send({ t: "error", id, error: wireError(error) });
  }
}

function refuse(id: number, message: string): void {
  send({ t: "error", id, error: { message } });
}

/**
 * The loaded tool `name`, or `undefined` once request `id` is refused: a tool host started again
 * after a stop loads its modules anew, and they may no longer define a tool the host's session
 * still has.
 */
function toolFor(id: number, name: string): CustomTool | undefined {
  const tool = tools.get(name);
  if (tool !== undefined) return tool;
  // A module that failed to load again is the likeliest cause: its error says what to fix.
  const failed = loadErrors.slice(0, 3).map(({ message }) => sentence(message.split("\n")[0] as string));
  const why =
    failed.length === 0
      ? ""
      : ` Loading them again reported ${count(loadErrors.length, "error")}: ${failed.join(" ")}`;
  refuse(
    id,
    `The tool host has no tool "${name}": its modules no longer define it (they were loaded again when the tool host restarted).${why} Reload the tools.`,
  );
  return undefined;
}

function settleAction(id: number, action: number, kind: "apply" | "reject", reason: string) {
  const staged = actions.get(action);
  if (staged === undefined) return refuse(id, `The tool host has no pending action ${action}.`);
  if (kind === "reject") actions.delete(action);
  return answer(id, async () => {
    // Read once, field by field, as a Session reads what a callback returned: a result a
    // Session would read as applied is applied here too (a throwing getter reads as absent).
    if (kind === "reject") return readResult(await callReject(staged, reason));
    const result = readResult(await callApply(staged, reason));
    // A failed apply keeps the action, as in-process: it may be applied again.
    if (result.isError !== true) actions.delete(action);
    return result;
  });
}

/** What a callback returned, as the plain result a Session reads from it. */
function readResult(returned: unknown): AgentToolResult {
  const read = readCallbackResult(returned);
  const result: AgentToolResult = { content: read.content ?? [] };
  if (read.details !== undefined) result.details = read.details;
  if (read.isError) result.isError = true;
  return result;
}

/** Runs a durable action's handler of one of the loaded tools and sends its outcome. */
async function runHandler(message: Extract<HostMessage, { t: "action" }>): Promise<void> {
  const tool = toolFor(message.id, message.tool);
  if (tool === undefined) return;
  const handler = tool.actions?.[message.handler];
  const callback = handler?.[message.callback];
  if (typeof callback !== "function")
    return refuse(
      message.id,
      `The tool "${message.tool}" here declares no ${message.callback} for the action handler "${message.handler}".`,
    );
  // Read as a Session reads a handler's result in-process (an absent result is no content).
  await answer(message.id, async () =>
    readResult(await callback(message.payload as never, message.reason, message.context)),
  );
}

/** A call (or `onSession` hook) of request `message`, with its session's UI. */
function childCall(
  message: Extract<HostMessage, { t: "call" | "session" }>,
  toolCallId: string,
  controller: AbortController | undefined,
): ChildCall {
  return {
    id: message.id,
    toolName: message.tool,
    toolCallId,
    sessionId: message.context.sessionId,
    hasUI: message.context.hasUI ?? uiAttached,
    ended: controller === undefined,
    controller,
    pending: 0,
  };
}

function handle(message: HostMessage): void {
  switch (message.t) {
    case "init":
      load(message).catch((error: unknown) => {
        send({ t: "log", level: "error", message: `The tool host could not load: ${describe(error)}` });
        process.exit(70);
      });
      return;
    case "call": {
      // First, whatever follows: the host counts this message's conversation as seen.
      const context = receiveConversation(conversations, message.context);
      const tool = toolFor(message.id, message.tool);
      if (tool === undefined) return;
      const call = childCall(message, message.toolCallId, new AbortController());
      calls.set(call.id, call);
      // Never rejects: the call's own faults are its answer (runner.end forgets it).
      void runCall(runner, tool, call, message.toolCallId, message.params, context, message.updates);
      return;
    }
    case "abort": {
      const call = calls.get(message.id);
      if (call === undefined || call.ended) return;
      call.ended = true;
      call.controller?.abort(new Error("The call was stopped by the host."));
      return;
    }
    case "apply":
    case "reject":
    case "action":
      // With the resolving session's UI.
      void settling.run({ id: message.id, hasUI: message.hasUI ?? uiAttached }, () =>
        message.t === "action"
          ? runHandler(message)
          : settleAction(message.id, message.action, message.t, message.reason),
      );
      return;
    case "forget":
      actions.delete(message.action);
      return;
    case "session": {
      const context = receiveConversation(conversations, message.context);
      const tool = toolFor(message.id, message.tool);
      if (tool === undefined) return;
      const ctx = callContext(runner, childCall(message, "", undefined), context);
      ctx.pushPendingAction = (action) => {
        throw noCallPushError(action);
      };
      void answer(message.id, async () => {
        await tool.onSession?.(message.event as never, ctx);
        return { content: [] };
      });
      return;
    }
    case "ui-reply": {
      const waiting = uiReplies.get(message.id);
      uiReplies.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.value);
      return;
    }
    case "ui-state":
      uiAttached = message.hasUI;
      return;
    case "event":
      hostRef?.bridge.deliver(message.channel, message.data);
      return;
    case "ping":
      // After `afterMs`, a timer set now fires after every shorter one the modules set before.
      if (message.afterMs === undefined) send({ t: "pong", id: message.id });
      else setTimeout(() => send({ t: "pong", id: message.id }), message.afterMs);
      return;
    case "describe": {
      const tool = toolFor(message.id, message.tool);
      if (tool === undefined) return;
      // The record's getter never throws: a failing read gives the last good description.
      send({ t: "result", id: message.id, result: { content: [{ type: "text", text: tool.description }] } });
      return;
    }
  }
}

readLines(input, MAX_LINE_BYTES, {
  line(text) {
    let message: HostMessage;
    try {
      message = JSON.parse(text) as HostMessage;
    } catch {
      return;
    }
    handle(message);
  },
  overflow: () => process.exit(70),
});
