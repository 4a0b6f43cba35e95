// The child process of `tooldock validate --isolate`: loads one module and reports on its
// report channel (file descriptor 3, see isolate-protocol.ts), then exits by itself. The
// parent spawns it with `--max-old-space-size`, in its own process group, and kills that
// group when it is done with it.
//
// What the module can and cannot do to the report: everything this script needs (the
// channel, the nonce, the clock, exit) is taken before the module is imported, and the nonce
// arrives on stdin, which is then closed, so a module that writes its own "result" and
// "settled" (to fd 3 or anywhere) writes them without the nonce and fails the check. A module
// runs in this very process, though: one that goes out of its way (the inspector, reading
// this process's memory) can still learn the nonce and lie about itself. Isolation protects
// the caller from hangs, exits, crashes and floods, not from a module that lies.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { loadCustomTools } from "@tooldock/loader";
import { toToolEntry } from "../load/to-tool-entry.js";
import { type IsolateMessage, type IsolateRequest, REPORT_FD } from "./isolate-protocol.js";

// Taken before any module runs, so a module that replaces them cannot silence the report.
const channel = createWriteStream("", { fd: REPORT_FD });
channel.on("error", () => {
  // The parent is gone or stopped reading: nobody to report to.
});
const stringify = JSON.stringify;
const activeResources = process.getActiveResourcesInfo.bind(process);
const now = performance.now.bind(performance);
const schedule = setTimeout;
const immediate = setImmediate;
const reallyExit = (
  (process as unknown as { reallyExit?: (code: number) => never }).reallyExit ?? process.exit
).bind(process);

/** Writes one line on the report channel; resolves once it was handed to the pipe. */
function post(line: string): Promise<void> {
  return new Promise((resolve) => {
    channel.write(`${line}\n`, () => resolve());
  });
}

async function readNonce(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.trim();
}

/**
 * Waits while the module still has timers or immediates pending, up to `settleMs`. Always
 * lets one turn of the event loop pass first, so a rejection nobody handled is raised here
 * (and ends the process, as it would end a host) rather than after "settled".
 */
async function settle(settleMs: number): Promise<void> {
  const deadline = now() + settleMs;
  await new Promise((resolve) => immediate(resolve));
  while (now() < deadline) {
    const pending = activeResources().some((kind) => kind === "Timeout" || kind === "Immediate");
    if (!pending) return;
    await new Promise((resolve) => schedule(resolve, Math.min(20, Math.max(1, deadline - now()))));
  }
}

const nonce = await readNonce();
const request = JSON.parse(process.argv[2] ?? "{}") as IsolateRequest;
const result = await loadCustomTools({
  paths: [request.path],
  cwd: request.cwd,
  cacheDir: request.cacheDir,
  factoryTimeoutMs: request.factoryTimeoutMs,
  builtInToolNames: request.builtInToolNames,
});
const diagnostics = [...result.diagnostics];
// JSON carries every entry: the loader's check (validateTool, through asSchema) refused any
// tool whose JSON Schema cannot be written as JSON.
const tools = result.tools.map(toToolEntry);
const resultLine = stringify({ type: "result", nonce, tools, diagnostics } satisfies IsolateMessage);
await post(resultLine);
await settle(request.settleMs);
const digest = createHash("sha256").update(resultLine).digest("hex");
await post(stringify({ type: "settled", nonce, digest } satisfies IsolateMessage));
// Exit by ourselves: the parent counts a child that is still there shortly after "settled" as
// hung. Not process.exit: exit listeners the module left would run first.
reallyExit(0);
