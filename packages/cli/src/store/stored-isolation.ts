import type { IsolationOptions } from "@tooldock/loader";
import type { ResolveDetails } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";
import type { AgentToolResult } from "@tooldock/sdk";
import { flagOption, type ParsedArgs } from "../args/parse-command-args.js";
import type { CliIo } from "../cli-io.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import type { OpenStore } from "./open-store.js";

/**
 * The isolation of a server (`mcp`, `inspect`) that serves a session of `store`: `flagged`
 * (what its flags say, `readIsolation`), unless the session holds actions a tool staged in a tool host and neither `--isolate`
 * nor `--no-isolate` was given. Then the tools load in a tool host, as `pending apply` runs
 * such an action: the user who staged it did not trust the tool, and a server started a day
 * later without the flag must not run its handler in this process. Said on stderr; the tool
 * host also writes the folders those actions were staged in (their handlers' `ctx.cwd`). One
 * staged so after the server loaded in-process is refused by the session itself (the runtime's
 * `isolatedActionsInProcess`, `"run"` only with `--no-isolate`); see {@link refusedInProcessNote}.
 */
export async function storedIsolation(
  flagged: IsolationOptions | undefined,
  args: ParsedArgs,
  io: Pick<CliIo, "env" | "stderr">,
  command: string,
  store: OpenStore | undefined,
  cwd: string,
): Promise<IsolationOptions | undefined> {
  if (store === undefined || flagged !== undefined || flagOption(args, "no-isolate")) return flagged;
  // A store that cannot be read is reported where the session is opened, before any load.
  const records = await Promise.resolve()
    .then(() => store.journal.open(store.sessionId))
    .catch(() => []);
  const staged = records.filter(
    (record) => record.isolated === true && (record.state === "pending" || record.state === "interrupted"),
  );
  if (staged.length === 0) return undefined;
  const isolation = readIsolation(args, io, command, true);
  if (isolation === undefined) return undefined;
  const folders = [...new Set(staged.map((record) => record.cwd ?? cwd))].filter((folder) => folder !== cwd);
  // readIsolation's default (validate's) writes nothing: a server's tools write its working folder.
  isolation.allowWrite = [cwd, ...folders];
  isolation.allowRead = [...(isolation.allowRead ?? []), ...folders];
  io.stderr.write(
    `tooldock ${command}: session "${store.sessionId}" of ${store.url} holds ${count(staged.length, "pending action")} staged by a tool in a tool host (--isolate): ` +
      "the tools are loaded in one, so their handlers run sandboxed. --no-isolate loads them in this process (if you trust the tools).\n",
  );
  return isolation;
}

/**
 * What a server (`mcp`, `inspect`) adds to a `resolve` the session refused because the action
 * was staged in a tool host and the server loaded its tools in-process (`refusedInProcess`): the
 * CLI's ways to resolve it, after the runtime's answer; else `undefined`.
 */
export function refusedInProcessNote(result: AgentToolResult): string | undefined {
  const details = result.details as Partial<ResolveDetails> | undefined;
  if (details?.refusedInProcess !== true) return undefined;
  return (
    "This server loaded its tools in its own process (no --isolate). To resolve the action, restart the server " +
    "(with the action in its store it loads the tools in a tool host), or use `tooldock pending apply|discard --store …`; " +
    "restart it with --no-isolate only if the user trusts the tools."
  );
}
