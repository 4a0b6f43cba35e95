import type { ToolsReload } from "@tooldock/loader";
import { count } from "@tooldock/runtime/internal";
import { createColors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";

/** One line for stderr, below the reload's diagnostics: what a reload changed and how many problems it found. */
export function describeReload(reload: ToolsReload): string {
  return summarize(reload, ", see above");
}

/**
 * The reload's message for the client's log. A client never sees the server's stderr, so the
 * errors follow the summary, each as stderr shows it (paths relative to `cwd`).
 */
export function describeReloadToClient(reload: ToolsReload, cwd: string): string {
  const errors = reload.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  return [summarize(reload, ":"), ...formatDiagnostics(errors, createColors(false), cwd)].join("\n");
}

function summarize(reload: ToolsReload, where: string): string {
  const { added, removed, replaced } = reload.changes;
  const list = (names: string[]) => (names.length > 0 ? names.join(", ") : "none");
  const errors = reload.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const problems =
    errors > 0 ? `; ${count(errors, "error")} (a module that failed keeps its previous tools)${where}` : "";
  return `reloaded after a change: added ${list(added)}; removed ${list(removed)}; replaced ${list(replaced)}${problems}`;
}

/** Whether a reload added, removed or replaced any tool (the client must list them again). */
export function reloadChangedTools(reload: ToolsReload): boolean {
  const { added, removed, replaced } = reload.changes;
  return added.length + removed.length + replaced.length > 0;
}

/** The client log level of a reload's summary: `"warning"` when a module failed to load, else `"info"`. */
export function reloadLogLevel(reload: ToolsReload): "warning" | "info" {
  return reload.diagnostics.some((diagnostic) => diagnostic.severity === "error") ? "warning" : "info";
}
