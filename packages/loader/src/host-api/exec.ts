import type { ChildProcessByStdio } from "node:child_process";
import { constants } from "node:os";
import type { Readable } from "node:stream";
import type { ExecOptions, ExecResult } from "@tooldock/sdk";

/** Exit code reported when the program cannot be started (as a shell reports "not found"). */
export const EXEC_SPAWN_FAILURE_CODE = 127;

/**
 * Runs `command` with `args` and no shell; resolves with its output, never rejects.
 *
 * - A process killed by a signal reports `code` 128 + the signal number and the `signal` name.
 * - `killed` is true when `signal` aborted or `timeout` expired (the process gets `SIGTERM`).
 * - A program that cannot be started resolves with code 127 and the reason in `stderr`.
 *
 * `node:child_process` is imported on the first call: loading tools (and `tooldock list`) never
 * pays for it, only a tool that runs a command.
 */
export async function execCommand(
  command: string,
  args: string[],
  defaultCwd: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let killed = false;
    let timer: NodeJS.Timeout | undefined;
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(command, args, {
        cwd: options.cwd ?? defaultCwd,
        shell: false,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      // Invalid arguments (a NUL byte in the command or an argument) throw synchronously.
      const message = error instanceof Error ? error.message : String(error);
      resolve({ stdout, stderr: message, code: EXEC_SPAWN_FAILURE_CODE, killed });
      return;
    }
    const kill = () => {
      killed = true;
      child.kill("SIGTERM");
    };
    // Called again ('close' after 'error'), it changes nothing: the promise has settled.
    const finish = (result: ExecResult) => {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
      resolve(result);
    };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) => {
      finish({ stdout, stderr: stderr + error.message, code: EXEC_SPAWN_FAILURE_CODE, killed });
    });
    child.on("close", (code, signal) => {
      const result: ExecResult = { stdout, stderr, code: code ?? 1, killed };
      if (signal !== null) {
        result.code = code ?? 128 + (constants.signals[signal] ?? 0);
        result.signal = signal;
      }
      finish(result);
    });
    if (options.timeout !== undefined && options.timeout > 0) timer = setTimeout(kill, options.timeout);
    if (options.signal?.aborted) kill();
    else options.signal?.addEventListener("abort", kill, { once: true });
  });
}
