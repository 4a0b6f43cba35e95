// Runs a process to its end with its output piped: the one child-process runner of the test
// suites (the CLI's `runProcess`, the loader's Node 24 runs).
import { spawn } from "node:child_process";
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
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...options.env },
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
