// The child process of `tooldock validate --isolate`: loads one module and reports over IPC.
// The parent spawns it with `--max-old-space-size`, in its own process group, and kills that
// group when it is done with it; this script never exits on its own (the IPC channel keeps it
// alive), so any exit the parent sees before "settled" was caused by the module.
import { setTimeout as wait } from "node:timers/promises";
import { loadCustomTools } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import { toToolEntry } from "../load/to-tool-entry.js";
import type { ToolEntry } from "../report/report-types.js";
import type { IsolateMessage, IsolateRequest } from "./isolate-protocol.js";

// Taken before any module runs, so a module that replaces them cannot silence the report.
const send = process.send?.bind(process);
const activeResources = process.getActiveResourcesInfo.bind(process);

function post(message: IsolateMessage): void {
  send?.(message);
}

/** Tools whose parameters JSON cannot carry are reported instead of breaking the whole report. */
function serializable(tools: ToolEntry[], diagnostics: Diagnostic[]): ToolEntry[] {
  return tools.filter((tool) => {
    try {
      JSON.stringify(tool);
      return true;
    } catch (error) {
      diagnostics.push({
        code: "E_INVALID_SCHEMA",
        severity: "error",
        message: `Tool "${tool.name}" in ${tool.path} has parameters that cannot be written as JSON Schema: ${(error as Error).message}`,
        path: tool.path,
        toolName: tool.name,
        hint: "Declare the parameters with plain TypeBox or zod object schemas (no cycles, no BigInt defaults).",
      });
      return false;
    }
  });
}

/**
 * Waits while the module still has timers or immediates pending, up to `settleMs`. Always
 * lets one turn of the event loop pass first, so a rejection nobody handled is raised here
 * (and ends the process, as it would end a host) rather than after "settled".
 */
async function settle(settleMs: number): Promise<void> {
  const deadline = performance.now() + settleMs;
  await new Promise((resolve) => setImmediate(resolve));
  while (performance.now() < deadline) {
    const pending = activeResources().some((kind) => kind === "Timeout" || kind === "Immediate");
    if (!pending) return;
    await wait(Math.min(20, Math.max(1, deadline - performance.now())));
  }
}

const request = JSON.parse(process.argv[2] ?? "{}") as IsolateRequest;
const result = await loadCustomTools({
  paths: [request.path],
  cwd: request.cwd,
  cacheDir: request.cacheDir,
  factoryTimeoutMs: request.factoryTimeoutMs,
  builtInToolNames: request.builtInToolNames,
});
const diagnostics = [...result.diagnostics];
const tools = serializable(result.tools.map(toToolEntry), diagnostics);
post({ type: "result", tools, diagnostics });
await settle(request.settleMs);
post({ type: "settled" });
