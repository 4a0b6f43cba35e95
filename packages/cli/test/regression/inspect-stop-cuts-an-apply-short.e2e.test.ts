import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli } from "../cli-process.js";
import { outputIncludes, postToInspect, startInspectProcess } from "../inspect-browser.js";
import { SLOW_APPLY_TOOLS, storeProjectEachTest } from "../store-project.js";

// inspect-stop-cuts-an-apply-short: Ctrl-C or SIGTERM while the page's Apply ran an action's
// apply ended `tooldock inspect` in the middle of it: half its change made, the stored action
// left interrupted, the page's request cut, and only "stopping" on stderr. The server now
// waits for the apply to end (at most its deadline) and says so; a second signal stops at
// once, saying what is left (the sibling of mcp-stop-cuts-an-apply-short).

const project = storeProjectEachTest(SLOW_APPLY_TOOLS);

/** An inspect server with the slow change staged and its apply started from the page's API. */
async function applying() {
  const server = await startInspectProcess(
    project.work.path,
    ["tools", "--store", project.store],
    project.env,
  );
  const exited = new Promise<number | null>((resolve) => {
    if (server.child.exitCode !== null) resolve(server.child.exitCode);
    else server.child.once("exit", (code) => resolve(code));
  });
  onTestFinished(async () => {
    await server.stop();
  });
  await postToInspect(server, "/api/call", { callId: "stage", tool: "stage_slow", params: {} });
  const applied = postToInspect(server, "/api/resolve", { action: "apply", reason: "the user approved it" });
  applied.catch(() => {});
  await outputIncludes(server, "apply started");
  return { server, applied, exited };
}

async function pendingList(): Promise<string> {
  const listed = await runCli(["pending", "list", "--store", project.store], {
    cwd: project.work.path,
    env: project.env,
  });
  return listed.stdout;
}

describe("inspect-stop-cuts-an-apply-short", { timeout: 30_000 }, () => {
  it("SIGTERM during an apply waits for it to end, says so, and the page gets the result", async () => {
    const { server, applied, exited } = await applying();
    server.child.kill("SIGTERM");
    await outputIncludes(server, 'waiting for the apply of "The slow change" to end');
    await writeFile(join(project.work.path, "go.txt"), "");
    const response = await applied;
    expect(JSON.stringify(await response.json())).toContain("applied the slow change");
    expect(await exited).toBe(0);
    expect(existsSync(join(project.work.path, "finished.txt"))).toBe(true);
    expect(await pendingList()).toContain("No pending action");
  });

  it("a second SIGTERM stops at once and says what is left and what to do", async () => {
    const { server, exited } = await applying();
    server.child.kill("SIGTERM");
    await outputIncludes(server, 'waiting for the apply of "The slow change" to end');
    server.child.kill("SIGTERM");
    expect(await exited).toBe(143);
    await outputIncludes(server, "marked interrupted (it can only be discarded)");
    expect(server.output()).toContain("then run tooldock pending discard --store");
    expect(existsSync(join(project.work.path, "finished.txt"))).toBe(false);
    expect(await pendingList()).toContain("interrupted while applying");
  });
});
