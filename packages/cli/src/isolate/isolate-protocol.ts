import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";

/** What the parent asks one child process to load (passed as its single argument, JSON). */
export interface IsolateRequest {
  /** The module, as the parent's discovery found it (absolute). */
  path: string;
  cwd: string;
  cacheDir: string | undefined;
  factoryTimeoutMs: number;
  builtInToolNames: string[];
  settleMs: number;
}

/** Child → parent over IPC: the module loaded (or failed) and this is what the loader found. */
export interface IsolateResultMessage {
  type: "result";
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
}

/** Child → parent: the timers the module left have run (or `settleMs` passed); kill me. */
export interface IsolateSettledMessage {
  type: "settled";
}

export type IsolateMessage = IsolateResultMessage | IsolateSettledMessage;

/** Narrows an IPC message from a child (which runs untrusted code) to the protocol. */
export function asIsolateMessage(value: unknown): IsolateMessage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as { type?: unknown; tools?: unknown; diagnostics?: unknown };
  if (message.type === "settled") return { type: "settled" };
  if (message.type === "result" && Array.isArray(message.tools) && Array.isArray(message.diagnostics)) {
    return {
      type: "result",
      tools: message.tools as ToolEntry[],
      diagnostics: message.diagnostics as Diagnostic[],
    };
  }
  return undefined;
}
