// Everything exported here is public API: run the CLI in-process (tests, wrappers).
export type { CliIo, OutputStream } from "./cli-io.js";
export { processIo } from "./cli-io.js";
export { run } from "./run.js";
export { cliVersion } from "./version.js";
