import { ToolHost } from "@tooldock/loader";
import { createAstEditTool, type PendingActionRecord, Session, type ToolChoice } from "@tooldock/runtime";
import type { AgentToolResult } from "@tooldock/sdk";
import type { CliIo } from "../cli-io.js";
import { type LoadedTools, loadTools } from "../load/load-tools.js";
import type { Output } from "../output/output.js";
import { type Resolution, resolveAll } from "./resolve-all.js";

/** Options of {@link runToolCall}. */
export interface ToolCallOptions {
  io: CliIo;
  output: Output;
  toolName: string;
  paths: string[];
  params: Record<string, unknown>;
  resolve?: { action: "apply" | "discard"; reason: string };
  /** Receives the tool's streamed partial results. */
  onUpdate?: (partial: AgentToolResult) => void;
}

/** What one `tooldock call` did. */
export interface ToolCallOutcome {
  loaded: LoadedTools;
  result: AgentToolResult;
  /** The stack right after the call, top first. */
  staged: PendingActionRecord[];
  /** The tool choice right after the call: `resolve` while something is pending. */
  toolChoice: ToolChoice;
  resolved: Resolution[];
  /** What is still pending after resolving (discarded when the session is disposed). */
  pending: PendingActionRecord[];
}

/**
 * Loads tools into a fresh session (with the built-in `ast_edit`), runs one tool, and with
 * `resolve` applies or discards everything it staged, top first. The session is disposed at
 * the end, which discards whatever is still pending: a bare `call` never changes anything a
 * deferrable tool only previewed.
 */
export async function runToolCall(options: ToolCallOptions): Promise<ToolCallOutcome> {
  const { io } = options;
  const session = new Session({ cwd: io.cwd });
  const host = new ToolHost({ cwd: io.cwd });
  host.setActiveSession(session);
  try {
    session.register(createAstEditTool({ cwd: io.cwd }), "built-in");
    const loaded = await loadTools({
      io,
      output: options.output,
      paths: options.paths,
      command: "call",
      session,
      host,
    });
    await session.start();
    const result = await session.execute({
      toolCallId: "call-1",
      name: options.toolName,
      params: options.params,
      signal: io.signal,
      onUpdate: options.onUpdate,
    });
    const staged = session.pending.list();
    const toolChoice = session.toolChoice();
    const resolved = options.resolve
      ? await resolveAll(session, options.resolve.action, options.resolve.reason)
      : [];
    return { loaded, result, staged, toolChoice, resolved, pending: session.pending.list() };
  } finally {
    host.setActiveSession(undefined);
    await session.dispose();
  }
}
