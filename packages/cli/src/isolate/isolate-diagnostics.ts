import type { DiscoveredModule } from "@tooldock/loader";
import type { Diagnostic, DiagnosticErrorCode } from "@tooldock/sdk";

/** How a child process ended, as far as the module's fault goes. */
export type IsolateFault =
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "blocked-after-load"; settleMs: number }
  /** Reported, but still there `exitGraceMs` after "settled": something blocks it, or the report was not the child's own. */
  | { kind: "no-exit-after-report"; exitGraceMs: number }
  /** Wrote something on its report channel that is not the protocol (a forged or broken message). */
  | { kind: "protocol"; reason: string }
  /** Wrote more than `maxBytes` on its report channel. */
  | { kind: "flood"; maxBytes: number }
  | {
      kind: "exit";
      code: number | null;
      signal: NodeJS.Signals | null;
      outOfMemory: boolean;
      stderr: string;
      afterLoad: boolean;
      memoryMb: number;
    };

function diagnostic(
  module: DiscoveredModule,
  code: DiagnosticErrorCode,
  message: string,
  hint: string,
): Diagnostic {
  const result: Diagnostic = { code, severity: "error", message, path: module.path };
  if (module.resolvedPath !== module.path) result.resolvedPath = module.resolvedPath;
  result.hint = hint;
  return result;
}

/** The most telling line of a crashed child's stderr: its `Name: message` line, if any. */
function stderrSummary(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim());
  const line =
    lines.find((candidate) => /^[A-Z][\w.]*: \S/.test(candidate) && !candidate.startsWith("Node.js ")) ??
    lines.find((candidate) => candidate.startsWith("FATAL ERROR: "));
  if (line === undefined) return "";
  return `: ${line.length > 300 ? `${line.slice(0, 299)}…` : line}`;
}

function howItEnded(fault: Extract<IsolateFault, { kind: "exit" }>): string {
  if (fault.signal !== null) return `was killed by ${fault.signal}`;
  return `exited with code ${fault.code ?? "unknown"}`;
}

/**
 * The diagnostic for a module whose child process did not report normally. Codes stay within
 * docs/contract.md §8: a hang is `E_FACTORY_TIMEOUT`, an exit, a crash or running out of memory is
 * `E_PROCESS_EXIT`; the message says what isolation saw.
 */
export function isolateFaultDiagnostic(module: DiscoveredModule, fault: IsolateFault): Diagnostic {
  const { path } = module;
  switch (fault.kind) {
    case "timeout":
      return diagnostic(
        module,
        "E_FACTORY_TIMEOUT",
        `${path} did not finish loading within ${fault.timeoutMs} ms in isolation; its process was killed. In-process, a host loading it would hang.`,
        "Look for a synchronous loop or a blocking call at the module's top level or in its factory; if it is only slow, raise --isolate-timeout.",
      );
    case "blocked-after-load":
      return diagnostic(
        module,
        "E_FACTORY_TIMEOUT",
        `${path} loaded, then blocked its process for more than ${fault.settleMs} ms (a timer or callback that never returns); a host that loads it would hang.`,
        "Remove the synchronous loop from the timers and callbacks the module starts.",
      );
    case "no-exit-after-report":
      return diagnostic(
        module,
        "E_FACTORY_TIMEOUT",
        `${path} reported its tools in isolation, but its process was still running ${fault.exitGraceMs} ms later instead of exiting; it was killed and counted as hung (something it started blocks the process, or the report did not come from tooldock).`,
        "Look for a synchronous loop in the module's timers, callbacks or exit handlers; a tool module must not write tooldock's report itself.",
      );
    case "protocol":
      return diagnostic(
        module,
        "E_PROCESS_EXIT",
        `${path} interfered with its isolated process: its report channel carried ${fault.reason}. The report is not trusted and its process was killed.`,
        "A tool module must not write to file descriptor 3 or send messages of its own to the process that loads it.",
      );
    case "flood": {
      const megabytes = Math.round(fault.maxBytes / (1024 * 1024));
      return diagnostic(
        module,
        "E_PROCESS_EXIT",
        `${path} wrote more than ${megabytes} MB on its report channel in isolation; its process was killed before the parent held any more of it.`,
        "A tool module must not write to file descriptor 3; if it really declares that many or that large tools, split it into several modules.",
      );
    }
    case "exit": {
      if (fault.outOfMemory) {
        return diagnostic(
          module,
          "E_PROCESS_EXIT",
          `${path} ran out of memory ${fault.afterLoad ? "after loading" : "while loading"} in isolation (heap capped at ${fault.memoryMb} MB); its process ${howItEnded(fault)}. In-process, it would end the host.`,
          "Look for unbounded allocation at import, in the factory or in a timer; if the module really needs more, raise --isolate-memory.",
        );
      }
      const when = fault.afterLoad
        ? "loaded, then its process ended from something it left running (a timer, a callback, a rejection nobody handled): it"
        : "ended its process while loading in isolation: it";
      return diagnostic(
        module,
        "E_PROCESS_EXIT",
        `${path} ${when} ${howItEnded(fault)}${stderrSummary(fault.stderr)}. In-process, it would end the host.`,
        "Do not call process.exit (or crash the process) in a tool module; throw an error from the factory instead.",
      );
    }
  }
}
