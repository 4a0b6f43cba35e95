import { resolve } from "node:path";
import type { PendingActionRecord } from "@tooldock/runtime";
import type { OptionSpec } from "../args/command-spec.js";
import { type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { shellWords } from "../output/shell-words.js";

/** The session a command keeps its actions under when `--session` is not given. */
export const DEFAULT_STORE_SESSION = "tooldock-cli";

/** The usage-line fragment of `--store` and `--session`. */
export const STORE_USAGE = "[--store sqlite:PATH|postgresql://…] [--session ID]";

/** `--store` and `--session`. */
export const storeOptions: Readonly<Record<string, OptionSpec>> = {
  store: {
    type: "string",
    valueName: "URL",
    description:
      "Keep pending actions in a durable store: sqlite:PATH (a file in a folder only you can write) or postgresql://USER@HOST/DB (the password in PGPASSWORD or ~/.pgpass, never on the command line)",
  },
  session: {
    type: "string",
    valueName: "ID",
    description: `The session whose actions the store keeps (default ${DEFAULT_STORE_SESSION})`,
  },
};

/** Help text on what `--store` changes. */
export const STORE_HELP =
  "With --store, the session's pending actions are kept in the store: durable actions (a handler and a payload) stay " +
  "pending after the command, for `tooldock pending apply|discard` (or a host's Session.open) to resolve in a later process; " +
  "callback actions cannot outlive the process and are discarded on exit.";

/** A durable store named on the command line. */
export type StoreChoice = {
  /** As given, for messages. */
  url: string;
  sessionId: string;
} & (
  | {
      kind: "sqlite";
      /** The SQLite file, absolute. */
      path: string;
    }
  | { kind: "postgres" }
);

/** `--store` and `--session` of `args`; `undefined` without `--store` (`required`: bad usage then). */
export function readStore(args: ParsedArgs, cwd: string, command: string, required: true): StoreChoice;
export function readStore(args: ParsedArgs, cwd: string, command: string): StoreChoice | undefined;
export function readStore(
  args: ParsedArgs,
  cwd: string,
  command: string,
  required = false,
): StoreChoice | undefined {
  const url = stringOption(args, "store");
  const sessionId = stringOption(args, "session");
  if (url === undefined) {
    if (required) throw new UsageError("--store is required (sqlite:PATH or postgresql://…)", command);
    if (sessionId !== undefined) throw new UsageError("--session needs --store", command);
    return undefined;
  }
  if (sessionId !== undefined && sessionId.trim() === "")
    throw new UsageError("--session may not be empty", command);
  const session = sessionId ?? DEFAULT_STORE_SESSION;
  if (/^postgres(ql)?:\/\//.test(url)) {
    checkNoPassword(url, command);
    return { kind: "postgres", url, sessionId: session };
  }
  if (!url.startsWith("sqlite:") || url.length === "sqlite:".length)
    throw new UsageError(
      `--store takes sqlite:PATH (a file) or a postgresql:// connection string, got "${url}"`,
      command,
    );
  return { kind: "sqlite", url, path: resolve(cwd, url.slice("sqlite:".length)), sessionId: session };
}

/**
 * Refuses a connection string that carries a password: every user of the machine can read a
 * process's arguments (\`ps\`, /proc/PID/cmdline). pg reads PGPASSWORD and ~/.pgpass instead.
 */
function checkNoPassword(url: string, command: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--store: "${url}" is not a connection string (postgresql://USER@HOST/DB)`, command);
  }
  if (parsed.password !== "" || parsed.searchParams.has("password"))
    throw new UsageError(
      "--store: keep the password out of the command line, where other users of this machine can read it (ps, /proc): " +
        "give it in PGPASSWORD or ~/.pgpass, and the connection string without it (postgresql://USER@HOST/DB)",
      command,
    );
}

/** The command that resolves a stored session's top action, as the CLI prints it. */
export function pendingCommand(
  store: StoreChoice,
  verb: "apply" | "discard" | "apply|discard",
  paths: string[],
): string {
  const session = store.sessionId === DEFAULT_STORE_SESSION ? [] : ["--session", store.sessionId];
  // The verb may be the placeholder `apply|discard`: only the user's words are quoted.
  return `tooldock pending ${verb} ${shellWords("--store", store.url, ...session, ...paths)}`;
}

/**
 * Whether a pending action stays in the store when the process ends (`PendingActionStore.release`
 * keeps them): a durable one, another process's, an interrupted one; this process's callback
 * actions cannot outlive it.
 */
export function outlivesProcess(record: PendingActionRecord): boolean {
  return record.handler !== undefined || record.stagedBy !== undefined || record.interrupted === true;
}
