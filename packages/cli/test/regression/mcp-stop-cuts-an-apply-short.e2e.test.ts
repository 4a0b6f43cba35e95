import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { connectHttpClient, startMcpHttpChild } from "../mcp-http-child.js";
import { SLOW_APPLY_TOOLS, storeProjectEachTest } from "../store-project.js";

// mcp-stop-cuts-an-apply-short: SIGTERM (or Ctrl-C, or the client closing stdin) while the
// client's `resolve` ran an action's apply ended `tooldock mcp` 0.2 s later, in the middle of
// the apply: half its change made, the stored action left interrupted, and not a word on
// stderr. An apply takes no signal, so the server now waits for it to end (at most its
// deadline) and says so; a second signal stops at once, saying what is left and what to do.

const project = storeProjectEachTest(SLOW_APPLY_TOOLS);

/** A server with the slow change staged and its apply started through `resolve`. */
async function applying() {
  const server = await startMcpChild(["--store", project.store, "tools"], project.work.path, project.env);
  onTestFinished(server.kill);
  await server.client.callTool({ name: "stage_slow", arguments: {} });
  const applied = server.client.callTool({
    name: "resolve",
    arguments: { action: "apply", reason: "the user approved it" },
  });
  applied.catch(() => {});
  await server.stderrIncludes("apply started");
  return { server, applied };
}

async function pendingList(): Promise<string> {
  const listed = await runCli(["pending", "list", "--store", project.store], {
    cwd: project.work.path,
    env: project.env,
  });
  return listed.stdout;
}

describe("mcp-stop-cuts-an-apply-short", { timeout: 30_000 }, () => {
  it("SIGTERM during an apply waits for it to end, says so, and the client gets the result", async () => {
    const { server, applied } = await applying();
    server.signal("SIGTERM");
    await server.stderrIncludes('waiting for the apply of "The slow change" to end');
    await writeFile(join(project.work.path, "go.txt"), "");
    const result = await applied;
    expect(JSON.stringify(result)).toContain("applied the slow change");
    expect(await server.exited).toBe(0);
    expect(existsSync(join(project.work.path, "finished.txt"))).toBe(true);
    expect(await pendingList()).toContain("No pending action");
  });

  it("a second SIGTERM stops at once and says what is left and what to do", async () => {
    const { server } = await applying();
    server.signal("SIGTERM");
    await server.stderrIncludes('waiting for the apply of "The slow change" to end');
    server.signal("SIGTERM");
    expect(await server.exited).toBe(143);
    // The exit may come before the last of stderr is read.
    await server.stderrIncludes("marked interrupted (it can only be discarded)");
    expect(server.stderr()).toContain("then run tooldock pending discard --store");
    expect(existsSync(join(project.work.path, "finished.txt"))).toBe(false);
    expect(await pendingList()).toContain("interrupted while applying");
  });

  it("over --http too: SIGTERM during an apply waits for it, and the client gets the result", async () => {
    const server = await startMcpHttpChild(["tools"], project.work.path, project.env);
    onTestFinished(server.kill);
    const { client } = await connectHttpClient(server.url);
    await client.callTool({ name: "stage_slow", arguments: {} });
    const applied = client.callTool({ name: "resolve", arguments: { action: "apply", reason: "ok" } });
    applied.catch(() => {});
    await server.stderrIncludes("apply started");
    server.signal("SIGTERM");
    await server.stderrIncludes('waiting for the apply of "The slow change" to end');
    await writeFile(join(project.work.path, "go.txt"), "");
    expect(JSON.stringify(await applied)).toContain("applied the slow change");
    expect(await server.exited).toBe(0);
    expect(existsSync(join(project.work.path, "finished.txt"))).toBe(true);
  });
});
