import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { DiscoveredModule } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { type IsolateFault, isolateFaultDiagnostic } from "./isolate-diagnostics.js";
import type { IsolateOptions } from "./isolate-options.js";
import {
  type IsolateRequest,
  type IsolateResultMessage,
  MAX_REPORT_BYTES,
  parseIsolateMessage,
  REPORT_FD,
} from "./isolate-protocol.js";
import { killProcessGroup, type ProcessGroupReaper } from "./process-group-reaper.js";
import { readReportLines } from "./report-lines.js";

/**
 * The child's entry sits beside the module that spawns it: `dist/isolate/` as tsc emits it, and
 * `dist/bundle/` in the bundled executable, whose chunks all share one flat folder with the
 * `isolate-child.js` entry (`scripts/bundle.mjs`).
 */
const CHILD_SCRIPT = fileURLToPath(new URL("./isolate-child.js", import.meta.url));
/** Kept of a child's stderr, to name a crash and to recognise running out of memory. */
const STDERR_TAIL_CHARS = 8_192;
/** After the child exits, how long to wait for the rest of its stderr and report (a grandchild may hold a pipe). */
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
 * a timeout, an exit, a crash, running out of memory, a report that breaks the protocol, a
 * flood of the report channel, or a process that does not exit by itself after its report.
 *
 * The report is trusted only as the protocol sends it: one `result` then one `settled` whose
 * digest matches it, both with this run's nonce (given on the child's stdin), at most
 * {@link MAX_REPORT_BYTES} in all, each checked against its schema; then the child must exit with
 * code 0 within `exitGraceMs`. Anything else fails the module. Always resolves once the child
 * is gone: on a deadline the group gets SIGTERM, then SIGKILL after a grace. Rejects only
 * when the child cannot be started at all.
 */
export function runIsolatedModule(
  module: DiscoveredModule,
  context: IsolateContext,
): Promise<IsolatedModuleResult> {
  const { options } = context;
  const nonce = randomBytes(24).toString("base64url");
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
      { cwd: context.cwd, env: context.env, detached: true, stdio: ["pipe", "ignore", "pipe", "pipe"] },
    );
    const pid = child.pid;
    let stderr = "";
    let report: { message: IsolateResultMessage; digest: string } | undefined;
    let settled = false;
    let verdict: Verdict | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;

    const stop = (next: IsolateFault, signal: NodeJS.Signals) => {
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
    const violation = (reason: string) => stop({ kind: "protocol", reason }, "SIGKILL");

    child.on("error", (error) => {
      if (pid === undefined) reject(error);
    });
    if (pid === undefined) return;
    context.reaper.add(pid);
    arm(options.timeoutMs, { kind: "timeout", timeoutMs: options.timeoutMs });
    child.stdin?.on("error", () => {
      // The child died before reading its nonce; its exit says how.
    });
    child.stdin?.end(`${nonce}\n`);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    readReportLines(child.stdio[REPORT_FD] as Readable, MAX_REPORT_BYTES, {
      overflow: () => stop({ kind: "flood", maxBytes: MAX_REPORT_BYTES }, "SIGKILL"),
      line: (bytes) => {
        if (verdict !== undefined) return;
        const parsed = parseIsolateMessage(bytes.toString("utf8"), nonce);
        if (!parsed.ok) return violation(parsed.reason);
        const message = parsed.value;
        if (message.type === "result") {
          if (report !== undefined) return violation("a second result");
          if (message.tools.some((tool) => tool.path !== module.path))
            return violation("a result with tools of another module");
          report = { message, digest: createHash("sha256").update(bytes).digest("hex") };
          // Loaded: now watch the timers it left, with a deadline of their own.
          arm(options.settleMs + options.killGraceMs, {
            kind: "blocked-after-load",
            settleMs: options.settleMs,
          });
          return;
        }
        if (report === undefined) return violation("a settled message before any result");
        if (settled) return violation("a second settled message");
        if (message.digest !== report.digest) return violation("a settled message for another result");
        settled = true;
        // The child exits by itself right after "settled"; one that stays is hung (or lied).
        arm(options.exitGraceMs, { kind: "no-exit-after-report", exitGraceMs: options.exitGraceMs });
      },
    });
    child.on("exit", (code, signal) => {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      // Sweep what the module may have started in the group, then let stderr and the report
      // channel drain briefly: "exit" can come before the last lines were read.
      killProcessGroup(pid, "SIGKILL");
      context.reaper.delete(pid);
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(drain);
        child.stderr?.destroy();
        (child.stdio[REPORT_FD] as Readable | null)?.destroy();
        if (verdict === undefined && settled && code === 0 && signal === null) verdict = { kind: "settled" };
        resolve(
          outcome(
            module,
            report?.message,
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
      // "close" comes once every stdio stream has ended (a detached grandchild may hold one open).
      const drain = setTimeout(finish, STDERR_DRAIN_MS);
      child.once("close", finish);
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
  // A module that took its process down (or hung it, or broke the protocol) after loading is
  // not usable: its tools are dropped, and what the loader already said about it is kept
  // unless it said the same.
  const earlier = report?.diagnostics ?? [];
  const fault = isolateFaultDiagnostic(module, verdict);
  const repeated = earlier.some(
    (diagnostic) => diagnostic.code === fault.code && diagnostic.path === fault.path,
  );
  return { tools: [], diagnostics: repeated ? earlier : [...earlier, fault] };
}
