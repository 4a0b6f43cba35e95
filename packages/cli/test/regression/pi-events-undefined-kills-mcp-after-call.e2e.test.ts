// End to end: the BUILT `tooldock` (build first: pnpm build), since what is tested is whether
// the process survives and what it prints.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { assertBuilt, cliBin, repoRoot, runCli } from "../cli-process.js";
import { workFolder } from "../memory-io.js";

// Attack: a pi tool returns at once and leaves a child process whose `close` handler calls
// `pi.events.emit(…)`. `pi.events` was undefined, so the handler threw after a successful
// call, and the uncaught exception ended `tooldock mcp`: the client lost its server. Fixed:
// `pi.events` exists (the handler emits), and a handler that still throws afterwards is
// reported (stderr, the client's log, the session's tool-call-fault naming the tool and call)
// while the server goes on; `tooldock call` likewise.
const dialects = join(repoRoot, "packages/loader/test/fixtures/dialects");
const FAULT = "the background job's close handler failed after the call";

beforeAll(assertBuilt);

describe("a close handler that runs after the call returned", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeEach(async () => {
    folder = await workFolder();
    cpSync(join(dialects, "pi/api/after-call-close-handler.ts"), join(folder.path, "tools/background.ts"));
    cpSync(join(dialects, "oh-my-pi/api/on-session-throws.ts"), join(folder.path, "tools/restore.ts"));
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await folder.remove();
  });

  it("tooldock mcp keeps serving, and names the tool in what it reports", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, "mcp", "tools"],
      cwd: folder.path,
      // The SDK passes only a few variables by default: the cache folder and the test run's
      // TMPDIR and XDG folders must reach the server.
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ),
        ...folder.env,
        NO_COLOR: "1",
      },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const logs: string[] = [];
    const client = new Client({ name: "regression", version: "1.0.0" });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    await client.connect(transport);
    cleanups.push(() => client.close());

    const quiet = await client.callTool({ name: "pi_background", arguments: { crash: false } });
    expect(quiet.isError).toBeFalsy();
    const crashing = await client.callTool({ name: "pi_background", arguments: { crash: true } });
    expect(crashing.isError).toBeFalsy();
    await vi.waitFor(() => expect(stderr).toContain(FAULT), { timeout: 15_000 });
    expect(stderr).toContain('tool "pi_background"');
    expect(stderr).not.toContain("reading 'emit'"); // pi.events exists now
    // The log notification travels on the MCP channel, not stderr: it may come a moment later.
    await vi.waitFor(() => expect(logs.join("\n")).toContain(FAULT), { timeout: 15_000 });
    expect(stderr).toContain("W_ON_SESSION_FAILED"); // omp_restore's onSession threw on start
    // Still serving: the next calls work.
    const again = await client.callTool({ name: "pi_background", arguments: { crash: false } });
    expect(again.content).toEqual([{ type: "text", text: "started" }]);
    // `resolve` is listed from the start (the default, --resolve always).
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "omp_restore",
      "pi_background",
      "resolve",
    ]);
  });

  it("tooldock call reports it, exits 0, and shows the failing onSession as W_ON_SESSION_FAILED", async () => {
    const run = await runCli(["call", "pi_background", "tools", "--args", '{"crash":true}'], {
      cwd: folder.path,
      env: folder.env,
    });
    expect(run.stdout).toContain("started");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("W_ON_SESSION_FAILED");
    expect(run.stderr).toContain("omp_restore");
  });

  it.each(["list", "validate"])(
    "tooldock %s shows the failing onSession as W_ON_SESSION_FAILED",
    async (command) => {
      const run = await runCli([command, "tools"], { cwd: folder.path, env: folder.env });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("W_ON_SESSION_FAILED");
      expect(run.stdout).toContain('"start" event: no saved state for this session');
    },
  );
});
