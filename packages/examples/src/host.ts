// An example host: load tool modules from a folder, run a session, let the "model" call a
// deferrable tool, and resolve the pending action it stages. Copy it and replace the scripted
// model turns (`modelTurn`) with calls to your model API.
//
//   node packages/examples/dist/host.js [tools-folder]
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadCustomTools, ToolHost } from "@tooldock/loader";
import { Session, toOpenAIRequest } from "@tooldock/runtime";
import type { AgentToolResult, Logger } from "@tooldock/sdk";

/** Options of {@link runExampleHost}. */
export interface ExampleHostOptions {
  /** Tool modules to load: a file, a folder or a package folder. */
  toolsPath: string;
  /** The folder the tools work in. */
  cwd: string;
  /** Where the host prints. Default: `console.log`. */
  log?: (line: string) => void;
}

const text = (result: AgentToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : `[${block.mimeType}]`)).join("\n");

/** Runs the example conversation and returns what the `resolve` call answered. */
export async function runExampleHost(options: ExampleHostOptions): Promise<AgentToolResult> {
  const log = options.log ?? console.log;
  const logger: Logger = {
    debug: () => undefined,
    info: (message) => log(`[tool] ${message}`),
    warn: (message) => log(`[tool warning] ${message}`),
    error: (message) => log(`[tool error] ${message}`),
  };

  // 1. One session per conversation; the host object owns the `pi` API tools receive.
  const session = new Session({ cwd: options.cwd });
  const host = new ToolHost({ cwd: options.cwd, logger });
  const { tools, diagnostics } = await loadCustomTools({
    paths: [options.toolsPath],
    cwd: options.cwd,
    host,
    session,
  });
  for (const diagnostic of diagnostics) {
    log(
      `${diagnostic.severity} ${diagnostic.code} ${diagnostic.path}: ${diagnostic.message} (${diagnostic.hint ?? ""})`,
    );
  }
  log(`Loaded ${tools.length} tool(s): ${tools.map((loaded) => loaded.tool.name).join(", ")}`);

  // 2. When a tool stages an action, the session produces a reminder to put in the conversation.
  session.subscribe((event) => {
    if (event.type === "reminder") log(`[reminder for the model] ${event.text}`);
  });
  await session.start();

  // 3. Each model turn: send the active tools and the tool choice; run the call it makes.
  let calls = 0;
  const modelTurn = async (name: string, params: unknown) => {
    const request = toOpenAIRequest(session);
    log(`→ model gets ${request.tools.length} tool(s), tool_choice ${JSON.stringify(request.tool_choice)}`);
    calls += 1;
    const result = await session.execute({ toolCallId: `call_${calls}`, name, params });
    log(`← ${name}${result.isError ? " (error)" : ""}:\n${text(result)}`);
    return result;
  };

  try {
    await modelTurn("batch_rename_preview", {
      files: ["draft-a.txt", "draft-b.txt"],
      find: "draft-",
      replace: "final-",
      regex: false,
    });
    // The stack now holds the rename; the next request forces `resolve`.
    for (const record of session.pending.list()) log(`pending: ${record.label} (${record.sourceToolName})`);
    return await modelTurn("resolve", { action: "apply", reason: "The user approved the new names." });
  } finally {
    // Disposing discards anything still pending and tells tools the session is over.
    await session.dispose();
  }
}

/** `node dist/host.js [tools-folder]`: runs the example in a temporary folder. */
async function main(): Promise<void> {
  const toolsPath = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
  const cwd = await mkdtemp(join(tmpdir(), "tooldock-host-"));
  try {
    await writeFile(join(cwd, "draft-a.txt"), "a\n");
    await writeFile(join(cwd, "draft-b.txt"), "b\n");
    const result = await runExampleHost({ toolsPath: resolve(toolsPath), cwd });
    console.log(`Files now: ${(await readdir(cwd)).sort().join(", ")}`);
    process.exitCode = result.isError ? 1 : 0;
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
