import type { IsolationOptions } from "@tooldock/loader";
import { count } from "@tooldock/runtime/internal";
import { type AgentToolResult, errorResult } from "@tooldock/sdk";
import { flagOption, type ParsedArgs } from "../args/parse-command-args.js";
import type { CliIo } from "../cli-io.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import type { OpenStore } from "./open-store.js";

/** How a server loads its tools, and whether its `resolve` refuses actions staged in a tool host. */
export interface ServedIsolation {
  isolation: IsolationOptions | undefined;
  /**
   * The session is `store`'s and its tools load in this process by default (no `--isolate`,
   * no `--no-isolate`): an action a tool staged in a tool host later (another process's
   * `call --isolate`) is refused, as its handler belongs in one.
   */
  refuseIsolatedActions: boolean;
}

/**
 * The isolation of a server (`mcp`, `inspect`) that serves a session of `store`: `flagged`
 * (what its flags say, `readIsolation`), unless the session holds actions a tool staged in a tool host and neither `--isolate`
 * nor `--no-isolate` was given. Then the tools load in a tool host, as `pending apply` runs
 * such an action: the user who staged it did not trust the tool, and a server started a day
 * later without the flag must not run its handler in this process. Said on stderr; the tool
 * host also writes the folders those actions were staged in (their handlers' `ctx.cwd`).
 */
export async function storedIsolation(
  flagged: IsolationOptions | undefined,
  args: ParsedArgs,
  io: Pick<CliIo, "env" | "stderr">,
  command: string,
  store: OpenStore | undefined,
  cwd: string,
): Promise<ServedIsolation> {
  if (store === undefined || flagged !== undefined || flagOption(args, "no-isolate"))
    return { isolation: flagged, refuseIsolatedActions: false };
  const inProcess = { isolation: undefined, refuseIsolatedActions: true };
  // A store that cannot be read is reported where the session is opened, before any load.
  const records = await Promise.resolve()
    .then(() => store.journal.open(store.sessionId))
    .catch(() => []);
  const staged = records.filter(
    (record) => record.isolated === true && (record.state === "pending" || record.state === "interrupted"),
  );
  if (staged.length === 0) return inProcess;
  const isolation = readIsolation(args, io, command, true);
  if (isolation === undefined) return inProcess;
  const folders = [...new Set(staged.map((record) => record.cwd ?? cwd))].filter((folder) => folder !== cwd);
  // readIsolation's default (validate's) writes nothing: a server's tools write its working folder.
  isolation.allowWrite = [cwd, ...folders];
  isolation.allowRead = [...(isolation.allowRead ?? []), ...folders];
  io.stderr.write(
    `tooldock ${command}: session "${store.sessionId}" of ${store.url} holds ${count(staged.length, "pending action")} staged by a tool in a tool host (--isolate): ` +
      "the tools are loaded in one, so their handlers run sandboxed. --no-isolate loads them in this process (if you trust the tools).\n",
  );
  return { isolation, refuseIsolatedActions: false };
}

/** The answer of a `resolve` of an action staged in a tool host, in a server that loaded its tools in-process. */
export function isolatedActionRefused(label: string): AgentToolResult {
  return errorResult(
    `"${label}" was staged by a tool in a tool host (--isolate), and this server loaded its tools in its own process, ` +
      "so it did not run the action's handler: nothing was applied or discarded. Tell the user: restart the server " +
      "(it then loads the tools in a tool host), or resolve it with `tooldock pending apply|discard --store …`.",
  );
}
