import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { nodeOnPath } from "./node-on-path.js";

/** How untrusted modules run: see {@link LoadCustomToolsOptions.isolation}. */
export interface IsolationOptions {
  /** `"process"`: in a tool host, a child Node process under Node's permission model. */
  mode: "process";
  /** More folders or files the tool host may read (absolute, or relative to `cwd`). Default: none. */
  allowRead?: string[];
  /**
   * Folders or files the tool host may write. Default: `[cwd]`. Pass `[]` for none: the
   * tools then cannot write at all, not even through a pending action.
   */
  allowWrite?: string[];
  /** Whether tools may start processes (`pi.exec`, `child_process`) and workers. Default: `false`. */
  allowExec?: boolean;
  /**
   * Whether tools may use the network. Node 25 and later refuse it otherwise (`--allow-net`);
   * on Node 20-24 the permission model does not cover the network, so tools always can.
   * Default: `false`.
   */
  allowNet?: boolean;
  /** Heap cap of the tool host, in MB (`--max-old-space-size`). Default: 512. */
  memoryMb?: number;
  /**
   * Environment variables the tool host gets, besides `PATH`, `HOME`, `LANG`, `TZ` and
   * `TERM` of the host's own environment (so no API key of the host reaches a tool unless
   * given here). Default: `{}`.
   */
  env?: Record<string, string>;
  /** After the tool host stopped, whether the next call starts a fresh one. Default: `true`. */
  restart?: boolean;
  /**
   * A Node binary (20.11 or later) to run the tool host. Default: the host's own Node; on Bun,
   * the first `node` on `PATH` that is not Bun itself.
   */
  execPath?: string;
  /** After a call is stopped, how long the tool host has to answer before it counts as hung. Default: 5000. */
  hangTimeoutMs?: number;
  /**
   * Deadline for the tool host to load every module, from when the host hands it its load
   * (once the host has built the packs the tool host evaluates: that build is not counted).
   * Default: 60000.
   */
  loadTimeoutMs?: number;
  /**
   * Receives what the tool host prints as it arrives: its modules' `console.log` and
   * `console.error`, what they write to descriptor 1 or 2 themselves (`fs.writeSync(1, …)`, a
   * logger; the tool host's own messages on stdout carry a mark), Node's warnings. Untrusted text:
   * escape it before a terminal shows it. At most 1,000,000 characters a minute per tool host,
   * then one `… [truncated: …]` line and nothing more until the minute ends. Default: dropped (the last 8 KB are kept to say why
   * a crashed tool host stopped). The CLI writes it to its stderr, control characters escaped.
   */
  onOutput?: (text: string) => void;
}

/** The default heap cap of a tool host, in MB. */
export const DEFAULT_TOOL_HOST_MEMORY_MB = 512;
/** Variables of the host's environment every tool host gets. */
const PASSED_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TERM", "SYSTEMROOT"];

/** {@link IsolationOptions} with every default applied and every path absolute. */
export type IsolationContext = Required<Omit<IsolationOptions, "mode" | "onOutput">> &
  Pick<IsolationOptions, "onOutput"> & { nodeVersion: string | undefined };

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0 || value > 2_147_483_647)
    throw new RangeError(`isolation.${name} must be a whole number from 1 to 2147483647 (got ${value}).`);
  return value;
}

/** Applies the defaults of {@link IsolationOptions}. Throws a `RangeError` for a bad number. */
export function normalizeIsolation(options: IsolationOptions, cwd: string): IsolationContext {
  const passed: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined) passed[name] = value;
  }
  const onNode = (process.versions as { bun?: string }).bun === undefined;
  return {
    allowRead: (options.allowRead ?? []).map((path) => resolve(cwd, path)),
    allowWrite: (options.allowWrite ?? [cwd]).map((path) => resolve(cwd, path)),
    allowExec: options.allowExec === true,
    allowNet: options.allowNet === true,
    memoryMb: positive(options.memoryMb, DEFAULT_TOOL_HOST_MEMORY_MB, "memoryMb"),
    env: { ...passed, ...options.env },
    restart: options.restart !== false,
    execPath: options.execPath ?? (onNode ? process.execPath : nodeOnPath(passed.PATH, process.execPath)),
    // The host's own Node: its version is known; another binary is asked once, at start.
    nodeVersion: options.execPath === undefined && onNode ? process.version : undefined,
    hangTimeoutMs: positive(options.hangTimeoutMs, 5_000, "hangTimeoutMs"),
    loadTimeoutMs: positive(options.loadTimeoutMs, 60_000, "loadTimeoutMs"),
    onOutput: options.onOutput,
  };
}

/**
 * The folders a module at `path` needs to read besides itself: every `node_modules` folder
 * above it (where its bare imports resolve), and every `package.json` above it (Node reads
 * the nearest one for a `.js` file's module type).
 */
export function moduleReadPaths(path: string): string[] {
  const paths = [path];
  let folder = dirname(path);
  for (;;) {
    for (const name of ["node_modules", "package.json"]) {
      const candidate = join(folder, name);
      if (existsSync(candidate)) paths.push(candidate);
    }
    const parent = dirname(folder);
    if (parent === folder) return paths;
    folder = parent;
  }
}
