// The wire between a host and its tool host (a child process running untrusted modules):
// newline-delimited JSON on one socket, each message an object with a type `t`. The host
// trusts nothing the child sends: every message is checked here, field by field, and a
// message that breaks the protocol stops the tool host (see ToolHostProcess).
import type { AgentToolResult, Diagnostic, ToolAnnotations } from "@tooldock/sdk";

/** What a tool host needs to load the modules (the host's first message). */
export interface InitMessage {
  t: "init";
  paths: string[];
  cwd: string;
  cacheDir: string;
  factoryTimeoutMs: number;
  builtInToolNames: string[];
  sourceMaps: boolean;
  hasUI: boolean;
  /** Whether tools may start processes: without it, they may signal no other process either. */
  allowExec: boolean;
  /** The packs the host built for these modules (read only here; see `prebuildPacks`). */
  packsDir?: string;
  /** Whether opencode tool files load (see `LoadCustomToolsOptions.opencode`). */
  opencode?: boolean;
}

/** The context values a call's `ctx` carries, read by the host when the call starts. */
export interface CallContext {
  sessionId: string;
  /** Whether the host has a user interface now (`pi.hasUI`). */
  hasUI?: boolean;
  cwd: string;
  hasPendingActions: boolean;
  model?: unknown;
  isIdle?: boolean;
  hasQueuedMessages?: boolean;
  entries?: unknown[];
  /** Absent when it holds the same entries as `entries` (a Session's always does). */
  branch?: unknown[];
  sessionFile?: string;
}

/** Host → tool host. */
export type HostMessage =
  | InitMessage
  | {
      t: "call";
      id: number;
      tool: string;
      toolCallId: string;
      params: unknown;
      context: CallContext;
      updates: boolean;
    }
  | { t: "abort"; id: number }
  /** `hasUI`: whether the session resolving it has a user interface (`pi.ui` in the callback). */
  | { t: "apply" | "reject"; id: number; action: number; reason: string; hasUI?: boolean }
  | { t: "forget"; action: number }
  /** A durable action's handler, run by the tool that declares it (see `ToolDescriptor.actions`). */
  | {
      t: "action";
      id: number;
      tool: string;
      handler: string;
      callback: "apply" | "reject";
      payload: unknown;
      reason: string;
      context: { sessionId: string; cwd: string; actionId: string; label: string };
      hasUI?: boolean;
    }
  | { t: "session"; id: number; tool: string; event: unknown; context: CallContext }
  | { t: "ui-reply"; id: number; value?: unknown; error?: string }
  | { t: "ui-state"; hasUI: boolean }
  | { t: "event"; channel: string; data: unknown }
  | { t: "ping"; id: number }
  /** The current description of a tool whose description is a getter (answered by a `result`'s text). */
  | { t: "describe"; id: number; tool: string };

/** A tool as the tool host describes it: everything a proxy needs to stand in for it. */
export interface ToolDescriptor {
  name: string;
  label: string;
  description: string;
  /** The JSON Schema of the parameters (the real schema checks arguments in the tool host). */
  parameters: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  hidden: boolean;
  deferrable: boolean;
  annotations?: ToolAnnotations;
  /** Whether the tool has an `onSession` hook. */
  onSession: boolean;
  /** Whether its description is a getter, read again at every use (see `describe`). */
  liveDescription?: boolean;
  /** The handlers of its durable actions, by name: whether each has a `reject`. */
  actions?: Record<string, { reject: boolean }>;
  path: string;
  resolvedPath: string;
}

/** An error thrown in the tool host, as plain data. */
export interface WireError {
  message: string;
  name?: string;
  code?: string;
  stack?: string;
}

/** Tool host → host. */
export type ChildMessage =
  | {
      t: "loaded";
      tools: ToolDescriptor[];
      diagnostics: Diagnostic[];
      modules: Array<{ path: string; resolvedPath: string }>;
    }
  | { t: "result"; id: number; result: AgentToolResult }
  | { t: "error"; id: number; error: WireError }
  | { t: "update"; id: number; partial: AgentToolResult }
  | {
      t: "push";
      /** The call that staged it (`ctx` or `pi` during a call); none: the host's active session. */
      call?: number;
      /** `ctx.pushPendingAction` (defaults the source to the tool) or `pi.pushPendingAction`. */
      via: "ctx" | "pi";
      action: number;
      label: string;
      details?: unknown;
      sourceToolName?: string;
      reject: boolean;
      /** A durable action: the handler it names and its payload (no callbacks to keep). */
      handler?: string;
      payload?: unknown;
    }
  | { t: "call-abort"; id: number }
  | {
      t: "ui";
      id: number;
      /** The call that asked (the host answers with that call's session's UI); none: outside any call. */
      call?: number;
      method: "select" | "confirm" | "input" | "notify";
      args: unknown[];
    }
  | { t: "emit"; channel: string; data: unknown }
  /** `pi.sendMessage`: the host attributes it to `call` itself (when that call is open). */
  | { t: "message"; call?: number; message: unknown; options?: unknown }
  | { t: "log"; level: "debug" | "info" | "warn" | "error"; message: string; data?: unknown }
  | { t: "listen"; channel: string }
  | { t: "pong"; id: number };

type Check<T> = { ok: true; value: T } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isString = (value: unknown): value is string => typeof value === "string";

/** A result's shape: an array of content blocks, each read and checked by the session. */
function isResult(value: unknown): value is AgentToolResult {
  return isRecord(value) && Array.isArray(value.content);
}

function isError(value: unknown): value is WireError {
  return (
    isRecord(value) &&
    isString(value.message) &&
    (value.name === undefined || isString(value.name)) &&
    (value.code === undefined || isString(value.code)) &&
    (value.stack === undefined || isString(value.stack))
  );
}

function isDescriptor(value: unknown): value is ToolDescriptor {
  return (
    isRecord(value) &&
    isString(value.name) &&
    isString(value.label) &&
    isString(value.description) &&
    isRecord(value.parameters) &&
    (value.outputSchema === undefined || isRecord(value.outputSchema)) &&
    typeof value.hidden === "boolean" &&
    typeof value.deferrable === "boolean" &&
    (value.annotations === undefined || isRecord(value.annotations)) &&
    typeof value.onSession === "boolean" &&
    (value.liveDescription === undefined || typeof value.liveDescription === "boolean") &&
    (value.actions === undefined || isActions(value.actions)) &&
    isString(value.path) &&
    isString(value.resolvedPath)
  );
}

function isDiagnostic(value: unknown): value is Diagnostic {
  return (
    isRecord(value) &&
    isString(value.code) &&
    (value.severity === "error" || value.severity === "warning") &&
    isString(value.message) &&
    isString(value.path)
  );
}

const isActions = (value: unknown): boolean =>
  isRecord(value) &&
  Object.values(value).every((handler) => isRecord(handler) && typeof handler.reject === "boolean");

const isModule = (value: unknown): value is { path: string; resolvedPath: string } =>
  isRecord(value) && isString(value.path) && isString(value.resolvedPath);

const LOG_LEVELS = new Set(["debug", "info", "warn", "error"]);
const UI_METHODS = new Set(["select", "confirm", "input", "notify"]);

/**
 * Checks one line from a tool host. Returns the message, or the reason it breaks the
 * protocol; never throws. Fields a message does not define are not copied.
 */
export function parseChildMessage(line: string): Check<ChildMessage> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: "a line that is not JSON" };
  }
  if (!isRecord(value)) return { ok: false, reason: "a message that is not an object" };
  const bad = (what: string): Check<ChildMessage> => ({ ok: false, reason: `a malformed "${what}" message` });
  switch (value.t) {
    case "loaded": {
      const { tools, diagnostics, modules } = value;
      if (!Array.isArray(tools) || !tools.every(isDescriptor)) return bad("loaded");
      if (!Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return bad("loaded");
      if (!Array.isArray(modules) || !modules.every(isModule)) return bad("loaded");
      return { ok: true, value: { t: "loaded", tools, diagnostics, modules } };
    }
    case "result":
      if (!isId(value.id) || !isResult(value.result)) return bad("result");
      return { ok: true, value: { t: "result", id: value.id, result: value.result } };
    case "error":
      if (!isId(value.id) || !isError(value.error)) return bad("error");
      return { ok: true, value: { t: "error", id: value.id, error: value.error } };
    case "update":
      if (!isId(value.id) || !isResult(value.partial)) return bad("update");
      return { ok: true, value: { t: "update", id: value.id, partial: value.partial } };
    case "push": {
      const { call, via, action, label, sourceToolName, reject } = value;
      if (call !== undefined && !isId(call)) return bad("push");
      if ((via !== "ctx" && via !== "pi") || !isId(action) || !isString(label)) return bad("push");
      if (sourceToolName !== undefined && !isString(sourceToolName)) return bad("push");
      if (typeof reject !== "boolean") return bad("push");
      if (value.handler !== undefined && (!isString(value.handler) || value.payload === undefined))
        return bad("push");
      const message: ChildMessage = { t: "push", via, action, label, reject };
      if (value.handler !== undefined) {
        message.handler = value.handler;
        message.payload = value.payload;
      }
      if (call !== undefined) message.call = call;
      if (value.details !== undefined) message.details = value.details;
      if (sourceToolName !== undefined) message.sourceToolName = sourceToolName;
      return { ok: true, value: message };
    }
    case "call-abort":
      if (!isId(value.id)) return bad("call-abort");
      return { ok: true, value: { t: "call-abort", id: value.id } };
    case "ui":
      if (!isId(value.id) || !UI_METHODS.has(value.method as string) || !Array.isArray(value.args))
        return bad("ui");
      if (value.call !== undefined && !isId(value.call)) return bad("ui");
      return {
        ok: true,
        value: {
          t: "ui",
          id: value.id,
          ...(value.call === undefined ? {} : { call: value.call }),
          method: value.method as "select" | "confirm" | "input" | "notify",
          args: value.args,
        },
      };
    case "emit":
      if (!isString(value.channel)) return bad("emit");
      return { ok: true, value: { t: "emit", channel: value.channel, data: value.data } };
    case "message": {
      if (value.call !== undefined && !isId(value.call)) return bad("message");
      if (!isRecord(value.message)) return bad("message");
      const message: ChildMessage = { t: "message", message: value.message };
      if (value.call !== undefined) message.call = value.call;
      if (value.options !== undefined) message.options = value.options;
      return { ok: true, value: message };
    }
    case "listen":
      if (!isString(value.channel)) return bad("listen");
      return { ok: true, value: { t: "listen", channel: value.channel } };
    case "log":
      if (!LOG_LEVELS.has(value.level as string) || !isString(value.message)) return bad("log");
      return {
        ok: true,
        value: {
          t: "log",
          level: value.level as "debug" | "info" | "warn" | "error",
          message: value.message,
          data: value.data,
        },
      };
    case "pong":
      if (!isId(value.id)) return bad("pong");
      return { ok: true, value: { t: "pong", id: value.id } };
    default:
      return { ok: false, reason: "a message of an unknown type" };
  }
}
