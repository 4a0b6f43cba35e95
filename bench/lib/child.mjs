// Fresh Node processes for measurements.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

/**
 * Runs `node <args>` and reports how it ended and its wall time from spawn to exit.
 * @param {string[]} args arguments after `node`
 * @param {{ timeoutMs?: number; cwd?: string; execPath?: string }} [options] `execPath`: the node
 *   binary (default: the one running this script; `--node` of bench/run.mjs picks another)
 * @returns {Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; wallMs: number }>}
 */
export function spawnNode(args, options = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(options.execPath ?? process.execPath, args, {
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 180_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, wallMs: performance.now() - started });
    });
  });
}

/**
 * Runs one measurement in a fresh process and parses the JSON line it printed last.
 * @param {string[]} args arguments after `node`
 * @param {{ timeoutMs?: number; cwd?: string; execPath?: string }} [options] as {@link spawnNode}
 * @returns {Promise<{ ok: true; value: any; wallMs: number } | { ok: false; error: string; wallMs: number }>}
 */
export async function runChild(args, options = {}) {
  const { code, signal, stdout, stderr, wallMs } = await spawnNode(args, options);
  if (code === 0) {
    try {
      return { ok: true, value: JSON.parse(stdout.trim().split("\n").at(-1) ?? ""), wallMs };
    } catch {
      // reported below
    }
  }
  const reason = signal ? `killed by ${signal}` : `exit code ${code}`;
  return { ok: false, error: `${reason}: ${(stderr || stdout).trim().slice(-600)}`, wallMs };
}
