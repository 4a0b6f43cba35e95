import { count } from "@tooldock/runtime/internal";
import { flagOption, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { waitForResolves } from "../call/wait-for-resolves.js";
import { isLoopbackHost } from "../http/local-address.js";
import { openInBrowser } from "../inspect/open-in-browser.js";
import { DEFAULT_INSPECT_HOST, startInspect } from "../inspect/serve-inspect.js";
import { isolatedActionsInProcess, readIsolation } from "../isolate/isolation-flags.js";
import { defaultToolPaths } from "../load/default-tool-paths.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { escapeTerminalText } from "../output/terminal-text.js";
import { openStore } from "../store/open-store.js";
import { pendingCommand, readStore } from "../store/store-option.js";
import { storedIsolation } from "../store/stored-isolation.js";
import type { CommandContext } from "./command.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

/**
 * Runs `tooldock inspect` (spec: `inspectSpec`): serves the inspect page until SIGINT, SIGTERM
 * or the io's signal, then disposes the session (pending actions discarded). Exit code 0.
 */
export async function run({ io, output, args, version }: CommandContext): Promise<number> {
  const port = portOption(stringOption(args, "port"));
  const host = stringOption(args, "host") ?? DEFAULT_INSPECT_HOST;
  if (host.trim() === "") throw new UsageError("--host may not be empty", "inspect");
  const flagged = readIsolation(args, io, "inspect", false);
  const given = toolPathArgs(args);
  const stored = readStore(args, io.cwd, "inspect");
  const paths = given.length > 0 ? given : await defaultToolPaths(io.cwd, "inspect", readOpencode(args));
  const opened = stored === undefined ? undefined : await openStore(stored);
  if (opened !== undefined && "error" in opened) {
    output.printError(`tooldock inspect: ${opened.error}`);
    return 1;
  }
  const store = opened?.store;
  try {
    const isolation = await storedIsolation(flagged, args, io, "inspect", store, io.cwd);
    const server = await startInspect({
      paths,
      cwd: io.cwd,
      version,
      host,
      port,
      cacheDir: io.env.TOOLDOCK_CACHE_DIR || undefined,
      isolation,
      opencode: readOpencode(args),
      store,
      isolatedActionsInProcess: isolatedActionsInProcess(args),
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
        throw new UsageError(
          `cannot listen on ${host}:${port} (${String(code)}); pick another --port or --host`,
          "inspect",
        );
      throw error;
    });
    const { errorColors } = output;
    if (server.diagnostics.length > 0)
      output.printError(...formatDiagnostics(server.diagnostics, errorColors, io.cwd));
    for (const line of server.nothingServed)
      output.printError(
        `${errorColors.yellow("tooldock inspect:")} ${escapeTerminalText(line, { multiline: true })}`,
      );
    output.print(
      `tooldock inspect: ${count(server.tools.length, "tool")} from ${count(server.modules, "module")}, reloading on changes.`,
      `Open ${server.url}`,
      store === undefined
        ? "Ctrl-C stops the server (pending actions are discarded)."
        : `Pending actions are kept in ${store.url} (session "${store.sessionId}"); Ctrl-C stops the server, and the durable ones stay there.`,
    );
    if (!isLoopbackHost(host)) {
      output.printError(
        errorColors.yellow(
          `tooldock inspect: listening on ${host}, not only this machine: anyone who has the URL (its token) can run the tools.`,
        ),
      );
    }
    const removeOpener = flagOption(args, "no-open")
      ? async () => {}
      : await openInBrowser(server.url, (problem) =>
          output.printError(`tooldock inspect: could not open a browser (${problem}); open the URL above.`),
        );
    await stopRequested(io.signal);
    output.printError("tooldock inspect: stopping");
    // Before the server closes: the page still waiting for an Apply gets its answer.
    await waitForResolves(
      server.controller.resolving(),
      (text) => output.printError(`tooldock inspect: ${escapeTerminalText(text)}`),
      store === undefined ? undefined : { url: store.url, discard: pendingCommand(store, "discard", paths) },
    );
    await server.close();
    await removeOpener();
    return 0;
  } finally {
    await store?.journal.close();
  }
}

/** `--port`: a whole number from 0 to 65535; default 0 (a free port). */
function portOption(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${value}")`, "inspect");
  return port;
}

/** Resolves on SIGINT, SIGTERM or when `signal` aborts. */
function stopRequested(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop, { once: true });
  });
}
