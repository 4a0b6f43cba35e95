import { PendingActionStore } from "@tooldock/runtime";
import { count, quoted } from "@tooldock/runtime/internal";
import { flagOption, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import type { ToolCallOutcome } from "../call/run-tool-call.js";
import { runToolCall } from "../call/run-tool-call.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import type { Colors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { actionDiffs, formatDiffs, formatPendingStack, formatToolChoice } from "../output/format-pending.js";
import { formatResult, formatResultContent } from "../output/format-result.js";
import { formatToolError } from "../output/format-tool-error.js";
import { escapeTerminalText } from "../output/terminal-text.js";
import { type OpenStore, openStore } from "../store/open-store.js";
import { outlivesProcess, pendingCommand, readStore, type StoreChoice } from "../store/store-option.js";
import type { CommandContext } from "./command.js";
import { parseJsonArgs } from "./parse-json-args.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

const summarize = (records: ToolCallOutcome["pending"]) =>
  records.map(({ id, label, sourceToolName }) => ({ id, label, sourceToolName }));

function prettyOutcome(
  outcome: ToolCallOutcome,
  toolName: string,
  action: string | undefined,
  colors: Colors,
  stored: { store: StoreChoice; paths: string[] } | undefined,
): string[] {
  const lines = formatResult(escapeTerminalText(toolName), outcome.result, colors);
  if (outcome.staged.length > 0) {
    const top = outcome.staged[0];
    lines.push("", ...formatPendingStack(outcome.staged, colors));
    // The tool's result is its preview; show the action's diff only when the result left it out.
    const shown = outcome.result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
    const diffs = actionDiffs(top?.details).filter(
      (diff) => !shown.includes(diff.trim().split("\n")[0] ?? ""),
    );
    if (diffs.length > 0) {
      lines.push(
        "",
        colors.bold(`Preview of ${quoted(escapeTerminalText(top?.label ?? ""))}:`),
        ...formatDiffs(diffs, colors).map((line) => `  ${line}`),
      );
    }
    lines.push("", formatToolChoice(outcome.toolChoice, colors));
  }
  for (const [index, resolution] of outcome.resolved.entries()) {
    lines.push(
      "",
      ...formatResult(
        `resolve ${action} #${index + 1}: ${escapeTerminalText(resolution.label)}`,
        resolution.result,
        colors,
      ),
    );
  }
  // With a store, durable actions stay pending in it; callback ones cannot outlive the process.
  const kept = stored === undefined ? [] : outcome.pending.filter(outlivesProcess);
  const lost = outcome.pending.length - kept.length;
  if (stored !== undefined && kept.length > 0) {
    lines.push(
      "",
      colors.yellow(
        `${count(kept.length, "action")} ${kept.length === 1 ? "stays" : "stay"} pending in ${stored.store.url} (session ${quoted(stored.store.sessionId)})` +
          `${lost > 0 ? `; ${count(lost, "callback action")} ${lost === 1 ? "was" : "were"} discarded on exit` : ""}. ` +
          `Nothing has changed yet: resolve with ${pendingCommand(stored.store, "apply|discard", stored.paths)}`,
      ),
    );
  } else if (outcome.staged.length === 0 && action !== undefined) {
    lines.push("", colors.dim(`The tool staged no action: nothing to ${action}.`));
  } else if (outcome.staged.length > 0 && action === undefined) {
    lines.push(
      "",
      colors.yellow(
        `Nothing has changed. Run again with --apply or --discard to resolve the staged ${outcome.staged.length === 1 ? "action" : "actions"}.`,
      ),
    );
  } else if (outcome.pending.length > 0) {
    lines.push(
      "",
      colors.yellow(
        `${count(outcome.pending.length, "action")} stayed pending and ${outcome.pending.length === 1 ? "was" : "were"} discarded on exit.`,
      ),
    );
  }
  return lines;
}

/** What happened beside the call, for stderr: actions discarded before it, an early stop, a slow exit. */
function callNotes(outcome: ToolCallOutcome, toolName: string, colors: Colors): string[] {
  const notes: string[] = [];
  const labels = (records: ToolCallOutcome["pending"]) =>
    records.map((record) => quoted(escapeTerminalText(record.label))).join(", ");
  if (outcome.discardedBeforeCall.length > 0) {
    const one = outcome.discardedBeforeCall.length === 1;
    notes.push(
      colors.yellow(
        `tooldock call: ${count(outcome.discardedBeforeCall.length, "action")} ${one ? "was" : "were"} pending before "${escapeTerminalText(toolName)}" ran ` +
          `(staged while the tools loaded, not by this call) and ${one ? "was" : "were"} discarded through ${one ? "its" : "their"} reject: ` +
          `${labels(outcome.discardedBeforeCall)}. --apply and --discard only act on what the call stages.`,
      ),
    );
  }
  if (outcome.stopped !== undefined)
    notes.push(`${colors.red("tooldock call:")} ${escapeTerminalText(outcome.stopped)}`);
  if (!outcome.disposed) {
    notes.push(
      colors.yellow(
        "tooldock call: discarding the pending actions (their reject) or the tools' shutdown did not finish " +
          "in time; the CLI exits without waiting for it.",
      ),
    );
  }
  return notes;
}

/**
 * The store of `--store` and its session's stack, once no action of it waits (the pending
 * policy would refuse the call meanwhile: they are the operator's to resolve); a message when
 * it cannot be opened or actions wait.
 */
async function openCallStore(
  choice: StoreChoice,
  paths: string[],
): Promise<{ store: OpenStore; pending: PendingActionStore } | { error: string }> {
  const opened = await openStore(choice);
  if ("error" in opened) return opened;
  const { store } = opened;
  const pending = await PendingActionStore.open(store.journal, store.sessionId);
  const waiting = pending.list();
  if (waiting.length === 0) return { store, pending };
  await store.journal.close();
  return {
    error:
      `session ${quoted(store.sessionId)} of ${store.url} has ${count(waiting.length, "pending action")} ` +
      `(${waiting.map((record) => quoted(escapeTerminalText(record.label))).join(", ")}). ` +
      `Resolve ${waiting.length === 1 ? "it" : "them"} first: ${pendingCommand(store, "apply|discard", paths)}, or use another --session.`,
  };
}

/** Runs `tooldock call` (spec: `callSpec`): one tool in a fresh session, its result, preview and pending stack. */
export async function run({ io, output, args }: CommandContext): Promise<number> {
  const [toolName = ""] = args.positionals;
  const apply = flagOption(args, "apply");
  const discard = flagOption(args, "discard");
  if (apply && discard) throw new UsageError("--apply and --discard exclude each other; give one", "call");
  const params = parseJsonArgs(stringOption(args, "args"));
  const action = apply ? "apply" : discard ? "discard" : undefined;
  const reason =
    stringOption(args, "reason") ?? `${action ?? "resolve"} requested on the tooldock command line`;
  if (reason.trim() === "") throw new UsageError("--reason may not be empty", "call");
  const json = flagOption(args, "json");
  const isolation = readIsolation(args, io, "call", false);
  const store = readStore(args, io.cwd, "call");
  const { errorColors } = output;
  const paths = toolPathArgs(args, 1);
  const opened = store === undefined ? undefined : await openCallStore(store, paths);
  if (opened !== undefined && "error" in opened) {
    output.printError(`${errorColors.red("tooldock call:")} ${escapeTerminalText(opened.error)}`);
    return 1;
  }
  let outcome: ToolCallOutcome;
  try {
    outcome = await runToolCall({
      io,
      output,
      toolName,
      paths,
      params,
      ...(opened === undefined
        ? {}
        : { store: { sessionId: opened.store.sessionId, pending: opened.pending } }),
      resolve: action
        ? {
            action,
            reason,
            interrupt: {
              command: "tooldock call",
              ...(store === undefined
                ? {}
                : { store: { url: store.url, discard: pendingCommand(store, "discard", paths) } }),
              write: (line) => output.printError(errorColors.yellow(escapeTerminalText(line))),
            },
          }
        : undefined,
      isolation,
      opencode: readOpencode(args),
      onUpdate: json
        ? undefined
        : (partial) => output.printError(...formatResultContent(partial, errorColors, "… ")),
    });
  } finally {
    await opened?.store.journal.close();
  }
  const { diagnostics } = outcome.loaded.report;
  if (diagnostics.length > 0) output.printError(...formatDiagnostics(diagnostics, errorColors, io.cwd), "");
  if (outcome.error !== undefined)
    output.printError(...formatToolError(toolName, outcome.error, errorColors, io.cwd));
  output.printError(...callNotes(outcome, toolName, errorColors));
  if (json) {
    output.printJson({
      result: outcome.result,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      pending: summarize(outcome.pending),
      resolved: outcome.resolved.map((resolution) => resolution.result),
      ...(outcome.stopped === undefined ? {} : { stopped: outcome.stopped }),
    });
  } else {
    const stored = store === undefined ? undefined : { store, paths };
    output.print(...prettyOutcome(outcome, toolName, action, output.colors, stored));
  }
  const failed =
    outcome.result.isError === true ||
    outcome.resolved.some((resolution) => resolution.result.isError) ||
    outcome.stopped !== undefined;
  return failed ? 1 : 0;
}
