import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { createAstEditTool } from "@tooldock/ast-edit";
import { type IsolationOptions, ToolHost } from "@tooldock/loader";
import { type PendingActionRecord, PendingActionStore } from "@tooldock/runtime";
import { quoted, settledWithin } from "@tooldock/runtime/internal";
import type { AgentToolResult } from "@tooldock/sdk";
import { flagOption, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { whileResolving } from "../call/interrupt-resolve.js";
import { DISCARD_BOUND_MS } from "../call/run-tool-call.js";
import { isolatedActionsInProcess, isolationOptions, readIsolation } from "../isolate/isolation-flags.js";
import { type LoadedTools, loadTools } from "../load/load-tools.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatResult } from "../output/format-result.js";
import { escapeTerminalText } from "../output/terminal-text.js";
import { type OpenStore, openSession, openStore } from "../store/open-store.js";
import { pendingCommand, readStore, type StoreChoice } from "../store/store-option.js";
import type { CommandContext } from "./command.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

/** Runs `tooldock pending list|apply|discard` (spec: `pendingSpec`): the actions a durable store keeps. */
export async function run(context: CommandContext): Promise<number> {
  const { io, output, args } = context;
  const [verb = ""] = args.positionals;
  if (verb !== "list" && verb !== "apply" && verb !== "discard")
    throw new UsageError(`unknown pending command "${verb}" (list, apply or discard)`, "pending");
  const choice = readStore(args, io.cwd, "pending", true);
  const reason = stringOption(args, "reason") ?? `${verb} requested on the tooldock command line`;
  if (reason.trim() === "") throw new UsageError("--reason may not be empty", "pending");
  const json = flagOption(args, "json");
  if (verb === "list") {
    const given = Object.keys(isolationOptions(false)).find((name) => args.values[name] !== undefined);
    if (given !== undefined)
      throw new UsageError(
        `--${given} is for pending apply and discard, which run a handler; list loads no tool`,
        "pending",
      );
  }
  // Nothing was ever staged in a file that does not exist: a typo in --store must not make
  // the folders and an empty database and answer "no pending action".
  if (choice.kind === "sqlite" && !existsSync(choice.path)) {
    const where = existsSync(dirname(choice.path)) ? "no such file" : "its folder does not exist";
    output.printError(
      `${output.errorColors.red("tooldock pending:")} ${escapeTerminalText(`E_PENDING_STORE: there is no pending-action database at ${choice.path} (${where}); nothing was ever staged there. Check the --store path (the one \`call --store\` or \`mcp --store\` was given).`)}`,
    );
    return 1;
  }
  const opened = await openStore(choice);
  if ("error" in opened) {
    output.printError(`${output.errorColors.red("tooldock pending:")} ${escapeTerminalText(opened.error)}`);
    return 1;
  }
  const { store } = opened;
  try {
    if (verb === "list") {
      const pending = await PendingActionStore.open(store.journal, store.sessionId);
      const records = pending.list();
      const history = await pending.history();
      const applying = await appliedElsewhere(store, records);
      if (json) output.printJson({ session: store.sessionId, pending: records, applying, history });
      else
        output.print(...listLines(store, records, output.colors), ...applyingLines(applying, output.colors));
      return 0;
    }
    return await resolveTop(verb, reason, store, context, json);
  } finally {
    await store.journal.close();
  }
}

function listLines(
  store: StoreChoice,
  records: PendingActionRecord[],
  colors: CommandContext["output"]["colors"],
): string[] {
  if (records.length === 0)
    return [`No pending action in session ${quoted(store.sessionId)} of ${store.url}.`];
  const lines = [colors.bold(`Pending in session ${quoted(store.sessionId)} of ${store.url}, top first:`)];
  for (const record of records) {
    const kind =
      record.interrupted === true
        ? colors.red("interrupted while applying: discard only")
        : record.handler !== undefined
          ? `durable, handler ${quoted(record.handler)} of ${record.sourceToolName}${record.isolated === true ? ", staged in a tool host" : ""}`
          : record.stagedBy !== undefined
            ? colors.yellow(`callbacks of process ${record.stagedBy.pid} on ${record.stagedBy.host}`)
            : "callbacks";
    lines.push(`  ${escapeTerminalText(record.label)}  ${colors.dim(`(${kind}; id ${record.id})`)}`);
  }
  return lines;
}

/** An action another process is applying now: off every stack until its apply ends. */
interface AppliedElsewhere {
  id: string;
  label: string;
  owner: { host: string; pid: number };
}

/** The session's records being applied by another process that may still run (none on `listed`). */
async function appliedElsewhere(
  store: OpenStore,
  listed: readonly PendingActionRecord[],
): Promise<AppliedElsewhere[]> {
  const shown = new Set(listed.map((record) => record.id));
  const records = await store.journal.open(store.sessionId);
  return records
    .filter((record) => record.state === "applying" && !shown.has(record.id))
    .map(({ id, label, owner }) => ({ id, label, owner: { host: owner.host, pid: owner.pid } }));
}

function applyingLines(
  applying: readonly AppliedElsewhere[],
  colors: CommandContext["output"]["colors"],
): string[] {
  if (applying.length === 0) return [];
  return [
    "",
    colors.bold(
      "Being applied now by another process (resolved there; listed again if it ends without an outcome):",
    ),
    ...applying.map(
      ({ id, label, owner }) =>
        `  ${escapeTerminalText(label)}  ${colors.dim(`(process ${owner.pid} on ${escapeTerminalText(owner.host)}; id ${id})`)}`,
    ),
  ];
}

/** Loads the tools the actions need, then resolves the session's top action once. */
async function resolveTop(
  verb: "apply" | "discard",
  reason: string,
  store: OpenStore,
  context: CommandContext,
  json: boolean,
): Promise<number> {
  const { io, output, args } = context;
  const session = await openSession(
    { cwd: io.cwd, isolatedActionsInProcess: isolatedActionsInProcess(args) },
    store,
  );
  const paths = toolPathArgs(args, 1);
  /** Runs a `resolve` of the action labelled `label`, saying what Ctrl-C meanwhile would leave. */
  const resolving = (
    label: string,
    params: { action: "apply" | "discard"; reason: string },
    toolCallId: string,
  ) =>
    whileResolving(() => session.execute({ toolCallId, name: "resolve", params, signal: io.signal }), {
      command: "tooldock pending",
      verb: params.action,
      label,
      store: { url: store.url, discard: pendingCommand(store, "discard", paths) },
      write: (line) => output.printError(output.errorColors.yellow(escapeTerminalText(line))),
    });
  const host = new ToolHost({ cwd: io.cwd });
  host.setActiveSession(session);
  let loaded: LoadedTools | undefined;
  try {
    session.register(createAstEditTool({ cwd: io.cwd }), "built-in");
    const top = session.pending.peek();
    if (top === undefined) {
      const applying = await appliedElsewhere(store, []);
      if (json) output.printJson({ session: store.sessionId, resolved: null, applying });
      else
        output.print(
          `No pending action in session ${quoted(store.sessionId)} of ${store.url}: nothing to ${verb}.`,
          ...applyingLines(applying, output.colors),
        );
      return 1;
    }
    const isolation = await pendingIsolation(context, store, top);
    if (isolation !== undefined && top.isolated === true && !flagOption(args, "isolate"))
      output.printError(
        output.errorColors.yellow(
          `tooldock pending: ${quoted(escapeTerminalText(top.label))} was staged by a tool in a tool host (--isolate): its handler runs in one, ` +
            "which reads only the tools' folders, the working folder and the action's folder, and writes only the action's folder, unless --allow-read, " +
            "--allow-write, --allow-exec or --allow-env grant more. --no-isolate runs it in this process (if you trust the tool).",
        ),
      );
    loaded = await loadTools({
      io,
      output,
      paths,
      command: "pending",
      session,
      host,
      opencode: readOpencode(args),
      ...(isolation === undefined ? {} : { isolation }),
    });
    const { diagnostics } = loaded.report;
    if (diagnostics.length > 0)
      output.printError(...formatDiagnostics(diagnostics, output.errorColors, io.cwd), "");
    await session.start();
    // Staged while the tools loaded (a factory, a start hook): on top of the action listed,
    // which is the one to resolve. Discarded through their reject, as `tooldock call` does.
    const loadedOnTop: string[] = [];
    for (
      let above = session.pending.peek();
      above !== undefined && above.id !== top.id;
      above = session.pending.peek()
    ) {
      const discarded = await resolving(
        above.label,
        { action: "discard", reason: "staged while the tools loaded; tooldock pending discards it" },
        "pending-staged-at-load",
      );
      loadedOnTop.push(above.label);
      if (session.pending.peek()?.id === above.id || discarded.isError === true) break;
    }
    if (loadedOnTop.length > 0) {
      const [was, its] = loadedOnTop.length === 1 ? ["was", "its"] : ["were", "their"];
      output.printError(
        output.errorColors.yellow(
          `tooldock pending: ${loadedOnTop.map((label) => quoted(escapeTerminalText(label))).join(", ")} ` +
            `${was} staged while the tools loaded, not by the session, and ${was} discarded through ${its} reject.`,
        ),
      );
    }
    if (session.pending.peek()?.id !== top.id) {
      output.printError(
        `tooldock pending: the top action of session ${quoted(store.sessionId)} is no longer ${quoted(escapeTerminalText(top.label))} (resolved meanwhile, or staged over); nothing was ${verb === "apply" ? "applied" : "discarded"}. Run tooldock pending list.`,
      );
      return 1;
    }
    const result = await resolving(top.label, { action: verb, reason }, `pending-${verb}`);
    // The action is back on top when it was not resolved (a failed apply, one interrupted or
    // without its handler): it is the one just reported, not one more.
    const remaining = session.pending.size - (session.pending.peek()?.id === top.id ? 1 : 0);
    if (json)
      output.printJson({ session: store.sessionId, resolved: result, pending: session.pending.list() });
    else
      output.print(
        ...formatResult(`${verb} ${escapeTerminalText(top.label)}`, result, output.colors),
        ...(remaining > 0
          ? ["", output.colors.dim(`${remaining} more pending in session ${quoted(store.sessionId)}.`)]
          : []),
      );
    // A discard whose tool host could not load finds no handler and drops the action without
    // its reject, which is no error of the resolve's: it is said, and is the command's failure.
    const unloaded =
      isolation !== undefined && diagnostics.some((diagnostic) => diagnostic.code === "E_TOOL_HOST");
    if (isolation !== undefined && (result.isError === true || unloaded))
      output.printError(...isolatedFailureNotes(verb, top, result, unloaded, output.errorColors));
    return result.isError === true || unloaded ? 1 : 0;
  } finally {
    host.setActiveSession(undefined);
    await settledWithin(session.dispose(), DISCARD_BOUND_MS);
    await loaded?.close();
  }
}

/**
 * Where the top action's handler runs: in a tool host (the loader's isolation) with
 * `--isolate`, or without a flag when its record says a tool host staged it; in this process
 * with `--no-isolate`, or for an action staged in-process. The flags are read by the one
 * implementation every loading command uses (`readIsolation`). Without `--allow-write`, the
 * tool host writes the folder the action was staged in (its handler's `ctx.cwd`, which the
 * staging tool host could write), and reads it besides the working folder.
 */
async function pendingIsolation(
  { io, args }: CommandContext,
  store: OpenStore,
  top: PendingActionRecord,
): Promise<IsolationOptions | undefined> {
  const isolation = readIsolation(args, io, "pending", top.isolated === true);
  if (isolation === undefined) return undefined;
  const records = await store.journal.open(store.sessionId);
  const folder = records.find((record) => record.id === top.id)?.cwd ?? io.cwd;
  if (args.values["allow-write"] === undefined) isolation.allowWrite = [folder];
  if (folder !== io.cwd) isolation.allowRead = [...(isolation.allowRead ?? []), folder];
  return isolation;
}

/** Node's permission model refused something (`ERR_ACCESS_DENIED`), as the handler's error words it. */
const ACCESS_DENIED = /ERR_ACCESS_DENIED|Access to this API has been restricted/;

/**
 * What to do after an isolated apply or discard failed: the tool host could not load the
 * tools (no handler ran), or refused what the handler tried (its permissions).
 */
function isolatedFailureNotes(
  verb: "apply" | "discard",
  top: PendingActionRecord,
  result: AgentToolResult,
  unloaded: boolean,
  colors: CommandContext["output"]["errorColors"],
): string[] {
  const label = quoted(escapeTerminalText(top.label));
  const tool = escapeTerminalText(top.sourceToolName);
  if (unloaded)
    return [
      colors.red(
        `tooldock pending: the tool host could not load the tools (E_TOOL_HOST above), so no handler of ${tool} ran: ` +
          (verb === "apply"
            ? `${label} is still pending. Fix what the diagnostic says (a longer --isolate-timeout, a larger --isolate-memory) and run tooldock pending apply again, or --no-isolate if you trust the tool.`
            : `${label} was discarded without its reject (its cleanup).`),
      ),
    ];
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  if (ACCESS_DENIED.test(text))
    return [
      colors.red(
        `tooldock pending: the tool host refused what the handler tried (Node's permission model: ERR_ACCESS_DENIED, "Access to this API has been restricted"): ` +
          `the ${verb === "apply" ? "apply" : "reject"} of ${label} by ${tool} reached outside the folders it may read or write, or started a process. ` +
          (verb === "apply"
            ? `${label} is still pending: run tooldock pending discard to drop it, or, if you trust the tool with that, apply it again granting it: `
            : `${label} was discarded all the same, its cleanup unfinished. Next time, grant a tool you trust what it needs: `) +
          "--allow-read PATH, --allow-write PATH (given, it replaces the action's folder: add that too), --allow-exec, --allow-env NAME; " +
          "or run it in this process with --no-isolate.",
      ),
    ];
  return [];
}
