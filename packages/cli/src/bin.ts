#!/usr/bin/env node
import { enableCompileCache } from "./compile-cache.js";

// Before the rest of the CLI is imported, so that its own code comes from the cache too.
enableCompileCache();
const [{ processIo }, { escapeTerminalText }, { reserveStdout }, { run }] = await Promise.all([
  import("./cli-io.js"),
  import("./output/terminal-text.js"),
  import("./output/reserve-stdout.js"),
  import("./run.js"),
]);

/** After the command is done, how long anything a tool module left running may delay the exit. */
const EXIT_GRACE_MS = 200;
/** How long the exit may wait for the compile cache to be written (see cacheWritesSettled). */
const CACHE_WRITE_CAP_MS = 10_000;

// A reader that goes away (`tooldock list | head -1`) ends what the CLI can print, not the
// command: a write to the closed pipe fails with EPIPE (and later ones on the destroyed
// stream), which would otherwise be an unhandled 'error' with a stack trace and exit code 1.
// The rest of the output is dropped; the exit code stays the command's own. `mcp` watches
// stdout itself as well (a client gone is the end of its session).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}

const argv = process.argv.slice(2);
const controller = new AbortController();
if (argv[0] === "call") {
  // Ctrl-C aborts the running tool once (its `signal` fires and it can stop cleanly); a second
  // Ctrl-C exits at once. Other commands keep Node's default: Ctrl-C exits.
  process.once("SIGINT", () => {
    controller.abort(new Error("interrupted (SIGINT)"));
    process.once("SIGINT", () => process.exit(130));
  });
}

if (argv[0] === "call" || argv[0] === "mcp") {
  // A tool's timer or callback that throws or rejects after its call returned must not end a
  // call or a server (nor change the exit code during the exit grace): report it and go on.
  // `serveMcp` adds a reporter of its own that also tells the client while it serves.
  // Imported here, not at the top: it needs the runtime, which `--version`, `--help` and the
  // other commands' start must not load (the bundle's entry imports only the CLI shell).
  const { describeStrayFault, holdStrayFaults } = await import("./faults/stray-faults.js");
  holdStrayFaults((fault) => {
    const text = `${describeStrayFault(fault)}\n(reported; tooldock goes on)`;
    process.stderr.write(`tooldock ${argv[0]}: ${escapeTerminalText(text, { multiline: true })}\n`);
  });
}

// Stdout is the CLI's own: what a loaded module prints (console.log, process.stdout.write, at
// import, in a call, or later: a timer, an exit handler) goes to stderr, so `tooldock schema >
// tools.json` and `list --json | jq` get the document alone. Kept until the process exits.
// `mcp` keeps stdout for its protocol the same way, itself.
const reserved = argv[0] === "mcp" ? undefined : reserveStdout(process.stdout, process.stderr);
const io = processIo(controller.signal);
if (reserved !== undefined) io.stdout = reserved.protocol;
process.exitCode = await run(argv, io);
// The output is out: what a cold load left for the compile cache (the packs of the modules it
// compiled file by file on Node 22.15+) is written before the exit, so the next run is warm.
const cacheWarnings = await (await import("./load/cache-writes.js")).cacheWritesSettled(CACHE_WRITE_CAP_MS);
for (const warning of cacheWarnings) {
  const text = `${warning.code}: ${warning.message}\n  ${warning.hint ?? ""}`.trimEnd();
  process.stderr.write(`tooldock: ${escapeTerminalText(text, { multiline: true })}\n`);
}
// A loaded module can leave an interval or a socket that keeps the event loop alive forever; the
// report is out, so end the process after a short grace. Unref'd: a clean process exits at once.
setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
