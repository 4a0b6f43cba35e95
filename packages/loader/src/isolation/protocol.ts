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
  /** The session's entries; with `entriesFrom`, only those after the first `entriesFrom` of its last message. */
  entries?: unknown[];
  /** How many entries this session's last message gave are kept (see `sendConversation`). */
  entriesFrom?: number;
  /** Absent when it holds the same entries as `entries` (a Session's always does). */
  branch?: unknown[];
  /** As `entriesFrom`, for the branch. */
  branchFrom?: number;
  /** Sessions whose conversations the tool host no longer keeps (the host's choice, see `sendConversation`). */
  forget?: string[];
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
  /** Answered with a `pong` at once, or after `afterMs` of the tool host's own timers. */
  | { t: "ping"; id: number; afterMs?: number }
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

/** A check of one field of a message from the tool host. */
type Field = (value: unknown) => boolean;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId: Field = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isString: Field = (value) => typeof value === "string";
const isBoolean: Field = (value) => typeof value === "boolean";
const anything: Field = () => true;
const optional =
  (check: Field): Field =>
  (value) =>
    value === undefined || check(value);
const oneOf =
  (...allowed: string[]): Field =>
  (value) =>
    allowed.includes(value as string);
const arrayOf =
  (check: Field): Field =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** An object with each of `fields`, checked (others are allowed, and never copied). */
const shape = (fields: Record<string, Field>): Field => {
  const checks = Object.entries(fields); // listed once: this runs for every message of a call
  return (value) => {
    if (!isRecord(value)) return false;
    for (const [key, check] of checks) if (!check(value[key])) return false;
    return true;
  };
};

/** A result's shape: an array of content blocks, each read and checked by the session. */
const isResult = shape({ content: Array.isArray });
const isDescriptor = shape({
  name: isString,
  label: isString,
  description: isString,
  parameters: isRecord,
  outputSchema: optional(isRecord),
  hidden: isBoolean,
  deferrable: isBoolean,
  annotations: optional(isRecord),
  onSession: isBoolean,
  liveDescription: optional(isBoolean),
  actions: optional((value) => isRecord(value) && Object.values(value).every(shape({ reject: isBoolean }))),
  path: isString,
  resolvedPath: isString,
});

/** The fields of each message a tool host may send; a field not listed here is dropped. */
const CHILD_MESSAGES: Record<ChildMessage["t"], Record<string, Field>> = {
  loaded: {
    tools: arrayOf(isDescriptor),
    diagnostics: arrayOf(
      shape({ code: isString, severity: oneOf("error", "warning"), message: isString, path: isString }),
    ),
    modules: arrayOf(shape({ path: isString, resolvedPath: isString })),
  },
  result: { id: isId, result: isResult },
  error: {
    id: isId,
    error: shape({
      message: isString,
      name: optional(isString),
      code: optional(isString),
      stack: optional(isString),
    }),
  },
  update: { id: isId, partial: isResult },
  push: {
    call: optional(isId),
    via: oneOf("ctx", "pi"),
    action: isId,
    label: isString,
    details: anything,
    sourceToolName: optional(isString),
    reject: isBoolean,
    handler: optional(isString),
    payload: anything,
  },
  "call-abort": { id: isId },
  ui: {
    id: isId,
    call: optional(isId),
    method: oneOf("select", "confirm", "input", "notify"),
    args: Array.isArray,
  },
  emit: { channel: isString, data: anything },
  // Any JSON value, as in-process a host gets whatever the tool sent.
  message: { call: optional(isId), message: (value: unknown) => value !== undefined, options: anything },
  log: { level: oneOf("debug", "info", "warn", "error"), message: isString, data: anything },
  listen: { channel: isString },
  pong: { id: isId },
};
const CHILD_FIELDS = Object.fromEntries(
  Object.entries(CHILD_MESSAGES).map(([t, fields]) => [t, Object.entries(fields)]),
) as Record<ChildMessage["t"], Array<[string, Field]>>;

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
  const { t } = value;
  if (typeof t !== "string" || !Object.hasOwn(CHILD_MESSAGES, t))
    return { ok: false, reason: "a message of an unknown type" };
  const message: Record<string, unknown> = { t };
  for (const [key, check] of CHILD_FIELDS[t as ChildMessage["t"]]) {
    if (!check(value[key])) return { ok: false, reason: `a malformed "${t}" message` };
    if (value[key] !== undefined) message[key] = value[key];
  }
  // A durable action carries its payload.
  if (message.handler !== undefined && message.payload === undefined)
    return { ok: false, reason: `a malformed "${t}" message` };
  return { ok: true, value: message as ChildMessage };
}
