// The Node binary that runs the measured children (`--node`): the one running the benchmark by
// default, another version from the npm registry (installed once by scripts/runtimes.mjs into
// the per-user runtime cache), or a binary given by path.
import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { ensureRuntime } from "../../scripts/runtimes.mjs";

const run = promisify(execFile);

/**
 * @typedef {{ execPath: string; version: string; requested?: string }} ChildNode
 *   `version` as the binary reports it (`v24.22.3`); `requested`: what `--node` said.
 */

/** The Node running this script. @returns {ChildNode} */
export function currentNode() {
  return { execPath: process.execPath, version: process.version };
}

/**
 * Reads `--node`: a version (`24`, `24.22`, `24.22.3`), a spec (`node@24`) or a path to a node
 * binary (anything with a `/`). Versions are installed from the npm registry on first use.
 * @param {string} value
 * @param {(line: string) => void} [log]
 * @returns {Promise<ChildNode>}
 */
export async function resolveChildNode(value, log) {
  /** @type {string} */
  let execPath;
  if (value.includes("/")) {
    execPath = resolve(value);
    await access(execPath, constants.X_OK).catch(() => {
      throw new Error(`bench: --node ${value}: ${execPath} is not an executable file`);
    });
  } else {
    const spec = /^\d+(\.\d+){0,2}$/.test(value) ? `node@${value}` : value;
    if (!/^node@\d+(\.\d+){0,2}$/.test(spec)) {
      throw new Error(
        `bench: --node ${value}: give a Node version (24, 24.22.3, node@24) or the path of a node binary`,
      );
    }
    execPath = await ensureRuntime(spec, { log });
  }
  const { stdout } = await run(execPath, ["-p", "process.version"], {
    env: { ...process.env, NODE_OPTIONS: "" },
    timeout: 30_000,
  });
  const version = stdout.trim();
  if (!/^v\d+\.\d+\.\d+/.test(version)) {
    throw new Error(
      `bench: --node ${value}: ${execPath} -p process.version printed "${version}", not a Node version`,
    );
  }
  return { execPath, version, requested: value };
}
