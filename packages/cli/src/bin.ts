#!/usr/bin/env node
import { processIo } from "./cli-io.js";
import { run } from "./run.js";

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

process.exitCode = await run(argv, processIo(controller.signal));
