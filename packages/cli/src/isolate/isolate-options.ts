import { availableParallelism } from "node:os";
import { DEFAULT_FACTORY_TIMEOUT_MS, FACTORY_TIMEOUT_ENV } from "@tooldock/loader";
import { type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";

/** Environment variable for `--isolate-timeout` (milliseconds per module). */
export const ISOLATE_TIMEOUT_ENV = "TOOLDOCK_ISOLATE_TIMEOUT_MS";
/** Environment variable for `--isolate-memory` (heap cap per module, MB). */
export const ISOLATE_MEMORY_ENV = "TOOLDOCK_ISOLATE_MEMORY_MB";
/** Default of `--isolate-timeout`. */
export const DEFAULT_ISOLATE_TIMEOUT_MS = 10_000;
/** Default of `--isolate-memory`: ample for loading tools, small enough to stop a runaway module fast. */
export const DEFAULT_ISOLATE_MEMORY_MB = 512;
/** Longest a loaded module's process is watched while it still has timers pending. */
const MAX_SETTLE_MS = 1_000;
/** How long a process group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** How long a child may take to exit by itself after its report before it counts as hung. */
const EXIT_GRACE_MS = 2_000;

/** How `validate --isolate` runs each module, normalised once from flags and environment. */
export interface IsolateOptions {
  /** Deadline for a module's child process to report its tools (compile, import, factory). */
  timeoutMs: number;
  /** `--max-old-space-size` of each child process, in MB. */
  memoryMb: number;
  /** Child processes running at once (at most the number of CPUs). */
  concurrency: number;
  /** The loader's `factoryTimeoutMs` in the child: its own deadlines fire first, with their own codes. */
  factoryTimeoutMs: number;
  /** After loading, how long the child waits for timers the module left, to catch a late `process.exit`. */
  settleMs: number;
  /** SIGTERM to SIGKILL. */
  killGraceMs: number;
  /** After its "settled" report, how long the child may take to exit by itself before it counts as hung. */
  exitGraceMs: number;
}

/**
 * Largest value either option takes: Node's timers hold at most 2^31-1 ms (a longer delay
 * overflows into 1 ms, so every module would time out at once), and the same bound is ample
 * for a heap size in MB.
 */
const MAX_ISOLATE_OPTION = 2_147_483_647;

function positiveInteger(text: string | undefined, source: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new UsageError(`${source} must be a positive whole number (got "${text}")`, "validate");
  }
  if (value > MAX_ISOLATE_OPTION) {
    throw new UsageError(
      `${source} must be at most ${MAX_ISOLATE_OPTION} (got "${text}"); give a smaller number`,
      "validate",
    );
  }
  return value;
}

/**
 * Reads `--isolate-timeout` / `$TOOLDOCK_ISOLATE_TIMEOUT_MS` and `--isolate-memory` /
 * `$TOOLDOCK_ISOLATE_MEMORY_MB` (a flag wins over its variable). The child's loader gets at
 * most half the module's time for each of its import and factory deadlines, so a promise that
 * never settles is reported with the same code as in-process (`E_IMPORT`, `E_FACTORY_TIMEOUT`)
 * before the process is killed.
 */
export function resolveIsolateOptions(
  args: ParsedArgs,
  env: Record<string, string | undefined>,
  cpus: number = availableParallelism(),
): IsolateOptions {
  const timeoutMs =
    positiveInteger(stringOption(args, "isolate-timeout"), "--isolate-timeout") ??
    positiveInteger(env[ISOLATE_TIMEOUT_ENV], ISOLATE_TIMEOUT_ENV) ??
    DEFAULT_ISOLATE_TIMEOUT_MS;
  const memoryMb =
    positiveInteger(stringOption(args, "isolate-memory"), "--isolate-memory") ??
    positiveInteger(env[ISOLATE_MEMORY_ENV], ISOLATE_MEMORY_ENV) ??
    DEFAULT_ISOLATE_MEMORY_MB;
  const fromEnv = Number(env[FACTORY_TIMEOUT_ENV]);
  const factoryTimeoutMs = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_FACTORY_TIMEOUT_MS;
  return {
    timeoutMs,
    memoryMb,
    concurrency: Math.max(1, cpus),
    factoryTimeoutMs: Math.max(1, Math.min(factoryTimeoutMs, Math.floor(timeoutMs / 2))),
    settleMs: Math.min(MAX_SETTLE_MS, timeoutMs),
    killGraceMs: KILL_GRACE_MS,
    exitGraceMs: EXIT_GRACE_MS,
  };
}
