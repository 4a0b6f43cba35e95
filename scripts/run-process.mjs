// Runs a process to its end with its output piped: the one child-process runner of the test
// suites (the CLI's `runProcess`, the loader's Node 24 runs).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * Runs `binary …args` to completion: in the repository unless `cwd`, without colour, output
 * piped. Resolves with the exit code and the output, whatever the code.
 *
 * @param {string} binary
 * @param {string[]} args
 * @param {{ cwd?: string; env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<{ code: number | null; stdout: string; stderr: string }>}
 */
export function runProcess(binary, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd: options.cwd ?? repoRoot,
      // FORCE_COLOR removed, not emptied: Node 24+ warns when both are set, even to "".
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `binary …args` with piped stdio, for a test that talks to it line by line: `next()`
 * reads its next stdout line as JSON (rejecting with its stderr when it ends without one),
 * `send` writes a line to its stdin, `ended()` resolves once it has exited, `kill()` ends it
 * (SIGKILL) and waits.
 *
 * @param {string} binary
 * @param {string[]} args
 * @param {{ cwd?: string; env?: NodeJS.ProcessEnv; onStderr?: (text: string) => void }} [options]
 */
export function startLineProcess(binary, args, options = {}) {
  const child = spawn(binary, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk;
    options.onStderr?.(stderr);
  });
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(undefined);
    else child.once("close", () => resolve(undefined));
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    stderr: () => stderr,
    async next() {
      const line = await lines.next();
      if (line.done === true) {
        await exited;
        throw new Error(`${args.join(" ")} ended without a line (exit ${child.exitCode}):\n${stderr}`);
      }
      return JSON.parse(line.value);
    },
    /** @param {string} line */
    send: (line) => child.stdin.write(`${line}\n`),
    ended: () => exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
