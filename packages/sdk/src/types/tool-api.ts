import type * as TypeBox from "@sinclair/typebox";
import type { z } from "zod";
import type * as Sdk from "../index.js";
import type { EventBus, ToolMessage } from "./event-bus.js";
import type { CustomToolDurableAction, CustomToolPendingAction } from "./pending-action.js";

/** Options of {@link CustomToolAPI.exec}. */
export interface ExecOptions {
  /** Working directory. Default: the host's `cwd`. */
  cwd?: string;
  /** Aborting kills the process; the result then has `killed: true`. */
  signal?: AbortSignal;
  /** Milliseconds before the process is killed; the result then has `killed: true`. */
  timeout?: number;
}

/** Outcome of {@link CustomToolAPI.exec}. A process killed by a signal has a non-zero `code`. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
  signal?: string;
}

/** Structured logging into the host's log. */
export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/**
 * The `pi.logger` tools get: the host's {@link Logger} plus `time`, which measures and logs at
 * `debug` level (`"<label>: <n> ms"`).
 */
export interface ToolLogger extends Logger {
  /** Starts a timer; calling the returned function logs the time since and returns it, in ms. */
  time(label: string): () => number;
  /** Runs `fn`, logs how long it took (also when it throws), and returns what it returned. */
  time<T>(label: string, fn: () => T): T;
}

/** Interaction with the user. Every method is a no-op (resolving to "no answer") without a UI. */
export interface UIContext {
  /** Lets the user pick one option; `undefined` when dismissed or there is no UI. */
  select(title: string, options: string[]): Promise<string | undefined>;
  /** Asks a yes/no question; `false` when dismissed or there is no UI. */
  confirm(title: string, message: string): Promise<boolean>;
  /** Asks for a line of text; `undefined` when dismissed or there is no UI. */
  input(title: string, placeholder?: string): Promise<string | undefined>;
  /** Shows a transient message. */
  notify(message: string, level?: "info" | "warning" | "error"): void;
}

/** The `pi` object a tool factory receives from the host. */
export interface CustomToolAPI {
  /** The host's working directory. */
  cwd: string;
  /** Runs a program without a shell. */
  exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
  /** The host's logger (it drops every message unless the host gives one), with `time`. */
  logger: ToolLogger;
  /**
   * The event bus every tool of the host shares with the host (pi's `pi.events`): the host
   * subscribes through its own handle (the loader's `host.events`).
   */
  events: EventBus;
  /**
   * Sends a message to the conversation (pi's `pi.sendMessage`). The host receives it as an
   * event (the loader's `host.events`, channel `"tooldock:message"`) and decides what to do
   * with it; the `tooldock` CLI and MCP server ignore it. `options` (pi's `triggerTurn`,
   * `deliverAs`) is passed on as given.
   */
  sendMessage(message: ToolMessage, options?: unknown): void;
  /** Read at call time: a UI the host attaches later is seen by tools already loaded. */
  readonly ui: UIContext;
  /** Read at call time, like {@link CustomToolAPI.ui}. */
  readonly hasUI: boolean;
  /**
   * pi's: the absolute path of the jiti CLI the host ships (`node <jitiCliPath> script.ts` runs
   * TypeScript in a child process, as subagent tools do); `undefined` where the host has none.
   */
  readonly jitiCliPath?: string | undefined;
  /** The host's single copy of TypeBox. */
  typebox: typeof TypeBox;
  /** The host's single copy of zod (v4). */
  zod: typeof z;
  /** The SDK's runtime exports. */
  pi: typeof Sdk;
  /**
   * Stages a pending action on the stack of the session whose tool call is running (also in
   * what the call awaits or schedules; `E_CALL_ENDED` once that call has ended). Outside any
   * call it uses the host's active session, and throws
   * `Pending action store unavailable for custom tools in this runtime.` when there is none.
   */
  pushPendingAction(action: CustomToolPendingAction | CustomToolDurableAction): void;
}
