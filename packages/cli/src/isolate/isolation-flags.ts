// The isolation flags every command that loads modules takes (list, validate, call, schema, mcp,
// inspect, pending apply|discard), read once into the loader's `IsolationOptions` (docs/contract.md §6).
import type { IsolationOptions } from "@tooldock/loader";
import type { IsolatedActionsInProcess } from "@tooldock/runtime";
import type { OptionSpec } from "../args/command-spec.js";
import { flagOption, listOption, type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import type { CliIo } from "../cli-io.js";
import { escapeTerminalText } from "../output/terminal-text.js";

/** Environment variable for `--isolate-timeout` (milliseconds). */
export const ISOLATE_TIMEOUT_ENV = "TOOLDOCK_ISOLATE_TIMEOUT_MS";
/** Environment variable for `--isolate-memory` (the tool host's heap cap, MB). */
export const ISOLATE_MEMORY_ENV = "TOOLDOCK_ISOLATE_MEMORY_MB";
/** `validate`'s default `--isolate-timeout`: its tool host loads one module. */
export const VALIDATE_ISOLATE_TIMEOUT_MS = 10_000;

/**
 * Largest value either number takes: Node's timers hold at most 2^31-1 ms (a longer delay
 * overflows into 1 ms), and the same bound is ample for a heap size in MB.
 */
const MAX_ISOLATE_NUMBER = 2_147_483_647;

/** The flags that set what the tool host may do; meaningless without isolation. */
const PERMISSION_FLAGS = [
  "allow-read",
  "allow-write",
  "allow-exec",
  "allow-net",
  "allow-env",
  "isolate-memory",
  "isolate-timeout",
];

/** The usage-line fragment of the isolation flags. */
export const ISOLATION_USAGE =
  "[--isolate | --no-isolate] [--allow-read PATH]… [--allow-write PATH]… [--allow-exec] [--allow-net] [--allow-env NAME]… [--isolate-memory MB] [--isolate-timeout MS]";

/**
 * The option specs of the isolation flags. `byDefault`: whether the command isolates without
 * a flag (`validate`); the help texts say so.
 */
export function isolationOptions(byDefault: boolean): Record<string, OptionSpec> {
  const timeoutDefault = byDefault ? `${VALIDATE_ISOLATE_TIMEOUT_MS} per module` : "60000";
  return {
    isolate: {
      type: "boolean",
      description: byDefault
        ? "Load the modules in a sandboxed tool host (the default for validate)"
        : "Load the modules in a sandboxed tool host: a child Node process under Node's permission model",
    },
    "no-isolate": {
      type: "boolean",
      description: byDefault
        ? "Load the modules in this process, trusted like your own code (faster)"
        : "Load the modules in this process (the default)",
    },
    "allow-read": {
      type: "string",
      multiple: true,
      valueName: "PATH",
      description:
        "With isolation: a folder or file the tools may also read (besides their own folders and the working folder)",
    },
    "allow-write": {
      type: "string",
      multiple: true,
      valueName: "PATH",
      description: byDefault
        ? "With isolation: a folder or file the modules may write (default for validate: none)"
        : "With isolation: a folder or file the tools may write (default: the working folder)",
    },
    "allow-exec": {
      type: "boolean",
      description: "With isolation: let the tools start processes and workers (pi.exec, child_process)",
    },
    "allow-net": {
      type: "boolean",
      description:
        "With isolation: let the tools open network connections (refused without it on Node 25 and later only)",
    },
    "allow-env": {
      type: "string",
      multiple: true,
      valueName: "NAME",
      description:
        "With isolation: pass this variable of the environment to the tool host (it gets only PATH, HOME, LANG, LC_ALL, TZ and TERM otherwise)",
    },
    "isolate-memory": {
      type: "string",
      valueName: "MB",
      description: `With isolation: heap cap of the tool host (default 512, or $${ISOLATE_MEMORY_ENV})`,
    },
    "isolate-timeout": {
      type: "string",
      valueName: "MS",
      description: `With isolation: time the tool host gets to start and load the modules (default ${timeoutDefault}, or $${ISOLATE_TIMEOUT_ENV})`,
    },
  };
}

/** The `--help` paragraph on isolation. */
export function isolationHelp(byDefault: boolean): string {
  return (
    (byDefault
      ? "By default validate loads each module in a tool host of its own (CI validates modules it did not write): "
      : "--isolate loads the modules in a tool host: ") +
    "a child Node process under Node's permission model that reads only the modules' folders, the working folder " +
    (byDefault
      ? "and --allow-read paths, writes nothing (unless --allow-write), starts no process unless "
      : "and --allow-read paths, writes only the working folder (or the --allow-write paths), starts no process unless ") +
    "--allow-exec, and has a heap cap; a module that hangs, exits, crashes or runs out of memory cannot take the CLI " +
    "with it." +
    (byDefault
      ? " --no-isolate loads them in this process instead (your own modules: faster)."
      : " Use it for tool modules you did not write.")
  );
}

function positiveInteger(text: string | undefined, source: string, command: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new UsageError(`${source} must be a positive whole number (got "${text}")`, command);
  if (value > MAX_ISOLATE_NUMBER)
    throw new UsageError(
      `${source} must be at most ${MAX_ISOLATE_NUMBER} (got "${text}"); give a smaller number`,
      command,
    );
  return value;
}

/**
 * The variables `--allow-env` names, with their values in the CLI's environment: names only on
 * the command line, so a secret never shows in the process list. A name that is not set is
 * said on stderr (the tool host will not have it either); one that is no variable name is bad
 * usage.
 */
function passedEnv(
  names: readonly string[],
  io: Pick<CliIo, "env" | "stderr">,
  command: string,
): Record<string, string> | undefined {
  if (names.length === 0) return undefined;
  const passed: Record<string, string> = {};
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(
        `--allow-env takes a variable name, not "${name}": set the variable, then name it (--allow-env API_KEY)`,
        command,
      );
    const value = io.env[name];
    if (value === undefined)
      io.stderr.write(
        `tooldock ${command}: --allow-env ${name}: ${name} is not set in this environment, so the tool host does not get it either.\n`,
      );
    else passed[name] = value;
  }
  return passed;
}

/**
 * Reads the isolation flags of `command`: `undefined` to load in-process, else the loader's
 * {@link IsolationOptions}. `byDefault` is the command's choice without a flag. A flag wins
 * over its environment variable; the permission flags without isolation, both `--isolate`
 * and `--no-isolate`, and a number that is not a whole number from 1 to 2147483647 are bad
 * usage.
 */
export function readIsolation(
  args: ParsedArgs,
  io: Pick<CliIo, "env" | "stderr">,
  command: string,
  byDefault: boolean,
): IsolationOptions | undefined {
  const { env } = io;
  const on = flagOption(args, "isolate");
  const off = flagOption(args, "no-isolate");
  if (on && off) throw new UsageError("--isolate and --no-isolate exclude each other; give one", command);
  const isolated = on || (byDefault && !off);
  if (!isolated) {
    for (const name of PERMISSION_FLAGS) {
      if (args.values[name] === undefined) continue;
      throw new UsageError(
        off ? `--${name} needs isolation; drop --no-isolate` : `--${name} needs --isolate`,
        command,
      );
    }
    return undefined;
  }
  const memoryMb =
    positiveInteger(stringOption(args, "isolate-memory"), "--isolate-memory", command) ??
    positiveInteger(env[ISOLATE_MEMORY_ENV], ISOLATE_MEMORY_ENV, command);
  const loadTimeoutMs =
    positiveInteger(stringOption(args, "isolate-timeout"), "--isolate-timeout", command) ??
    positiveInteger(env[ISOLATE_TIMEOUT_ENV], ISOLATE_TIMEOUT_ENV, command);
  const allowWrite = listOption(args, "allow-write");
  const options: IsolationOptions = { mode: "process", allowRead: listOption(args, "allow-read") };
  // validate (the command that isolates by default) loads modules it did not write and needs
  // no file of the working folder changed: nothing is writable unless --allow-write says so,
  // so a module cannot edit the sources a CI run is about to release.
  if (allowWrite.length > 0) options.allowWrite = allowWrite;
  else if (byDefault) options.allowWrite = [];
  if (flagOption(args, "allow-exec")) options.allowExec = true;
  if (flagOption(args, "allow-net")) options.allowNet = true;
  const passed = passedEnv(listOption(args, "allow-env"), io, command);
  if (passed !== undefined) options.env = passed;
  if (memoryMb !== undefined) options.memoryMb = memoryMb;
  if (loadTimeoutMs !== undefined) options.loadTimeoutMs = loadTimeoutMs;
  // What the modules print in their tool host reaches stderr, as their output would
  // in-process; untrusted text, so its control characters are shown escaped.
  options.onOutput = (text) => {
    io.stderr.write(escapeTerminalText(text, { multiline: true }));
  };
  return options;
}

/**
 * The session's `isolatedActionsInProcess`: `"run"` with `--no-isolate` (the user trusts the
 * tools, so their handlers in this process may resolve an action a tool host staged), else the
 * runtime's default, `"refuse"`.
 */
export function isolatedActionsInProcess(args: ParsedArgs): IsolatedActionsInProcess {
  return flagOption(args, "no-isolate") ? "run" : "refuse";
}
