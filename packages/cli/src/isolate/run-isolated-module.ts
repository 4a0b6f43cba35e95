import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { DiscoveredModule } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { type IsolateFault, isolateFaultDiagnostic } from "./isolate-diagnostics.js";
import type { IsolateOptions } from "./isolate-options.js";
import { asIsolateMessage, type IsolateRequest, type IsolateResultMessage } from "./isolate-protocol.js";
import { killProcessGroup, type ProcessGroupReaper } from "./process-group-reaper.js";

/**
 * The child's entry sits beside the module that spawns it: `dist/isolate/` as tsc emits it, and
 * `dist/bundle/` in the bundled executable, whose chunks all share one flat folder with the
 * `isolate-child.js` entry (`scripts/bundle.mjs`).
 */
const CHILD_SCRIPT = fileURLToPath(new URL("./isolate-child.js", import.meta.url));
/** Kept of a child's stderr, to name a crash and to recognise running out of memory. */
const STDERR_TAIL_CHARS = 8_192;
/** After the child exits, how long to wait for the rest of its stderr (a grandchild may hold the pipe). */
const STDERR_DRAIN_MS = 250;
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/;

/** Everything {@link runIsolatedModule} needs besides the module. */
export interface IsolateContext {
  cwd: string;
  env: Record<string, string | undefined>;
  cacheDir: string | undefined;
  builtInToolNames: string[];
  options: IsolateOptions;
  reaper: ProcessGroupReaper;
}

/** What one module contributed: its tools (before cross-module name checks) and diagnostics. */
export interface IsolatedModuleResult {
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
}

type Verdict = { kind: "settled" } | IsolateFault;

/**
 * Loads one module in a child process of its own (its own process group, a heap cap and a
 * deadline) and resolves to what it reported, or to one diagnostic for the way it failed:
 * a timeout, an exit, a crash or running out of memory. Always resolves once the child is
 * gone: on a deadline the group gets SIGTERM, then SIGKILL after a grace. Rejects only when
 * the child cannot be started at all.
 */
export function runIsolatedModule(
  module: DiscoveredModule,
  context: IsolateContext,
): Promise<IsolatedModuleResult> {
  const { options } = context;
  const request: IsolateRequest = {
    path: module.path,
    cwd: context.cwd,
    cacheDir: context.cacheDir,
    factoryTimeoutMs: options.factoryTimeoutMs,
    builtInToolNames: context.builtInToolNames,
    settleMs: options.settleMs,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${options.memoryMb}`, CHILD_SCRIPT, JSON.stringify(request)],
      { cwd: context.cwd, env: context.env, detached: true, stdio: ["ignore", "ignore", "pipe", "ipc"] },
    );
    const pid = child.pid;
    let stderr = "";
    let report: IsolateResultMessage | undefined;
    let verdict: Verdict | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;

    const stop = (next: Verdict, signal: NodeJS.Signals) => {
      if (verdict !== undefined || pid === undefined) return;
      verdict = next;
      killProcessGroup(pid, signal);
      if (signal !== "SIGKILL")
        graceTimer = setTimeout(() => killProcessGroup(pid, "SIGKILL"), options.killGraceMs);
    };
    const arm = (ms: number, fault: IsolateFault) => {
      clearTimeout(deadline);
      deadline = setTimeout(() => stop(fault, "SIGTERM"), ms);
    };

    child.on("error", (error) => {
      if (pid === undefined) reject(error);
    });
    if (pid === undefined) return;
    context.reaper.add(pid);
    arm(options.timeoutMs, { kind: "timeout", timeoutMs: options.timeoutMs });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on("message", (raw) => {
      const message = asIsolateMessage(raw);
      if (message?.type === "result" && report === undefined) {
        report = message;
        // Loaded: now watch the timers it left, with a deadline of their own.
        arm(options.settleMs + options.killGraceMs, {
          kind: "blocked-after-load",
          settleMs: options.settleMs,
        });
      } else if (message?.type === "settled" && report !== undefined) {
        stop({ kind: "settled" }, "SIGKILL");
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      // Sweep what the module may have started in the group, then let stderr drain briefly.
      killProcessGroup(pid, "SIGKILL");
      context.reaper.delete(pid);
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        child.stderr?.destroy();
        resolve(
          outcome(
            module,
            report,
            verdict ?? {
              kind: "exit",
              code,
              signal,
              outOfMemory: OUT_OF_MEMORY.test(stderr),
              stderr,
              afterLoad: report !== undefined,
              memoryMb: options.memoryMb,
            },
          ),
        );
      };
      if (child.stderr === null || child.stderr.readableEnded) finish();
      else {
        const drain = setTimeout(finish, STDERR_DRAIN_MS);
        child.stderr.once("close", () => {
          clearTimeout(drain);
          finish();
        });
      }
    });
  });
}

function outcome(
  module: DiscoveredModule,
  report: IsolateResultMessage | undefined,
  verdict: Verdict,
): IsolatedModuleResult {
  if (verdict.kind === "settled" && report !== undefined) {
    return { tools: report.tools, diagnostics: report.diagnostics };
  }
  if (verdict.kind === "settled") return { tools: [], diagnostics: [] };
  // A module that took its process down (or hung it) after loading is not usable: its tools
  // are dropped, and what the loader already said about it is kept unless it said the same.
  const earlier = report?.diagnostics ?? [];
  const fault = isolateFaultDiagnostic(module, verdict);
  const repeated = earlier.some(
    (diagnostic) => diagnostic.code === fault.code && diagnostic.path === fault.path,
  );
  return { tools: [], diagnostics: repeated ? earlier : [...earlier, fault] };
}
