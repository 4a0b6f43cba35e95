import { describe, expect, it, onTestFinished } from "vitest";
import { runCli } from "../cli-process.js";
import { postToInspect, startInspectProcess } from "../inspect-browser.js";
import { startMcpChild } from "../mcp-child.js";
import { storeProjectEachTest, WRITE_TOOLS } from "../store-project.js";

// server-store-applies-an-isolated-action-unsandboxed: `tooldock call --isolate --store` staged
// a durable action with a tool the user does not trust, and `tooldock mcp --store` (or `inspect
// --store`) without a flag loaded the tools in its own process and applied the action there,
// unsandboxed, in silence. `pending apply` runs such an action in a tool host without a flag;
// the servers now do the same, say so on stderr, and load in-process only with --no-isolate.
const project = storeProjectEachTest(WRITE_TOOLS);

async function stage(...flags: string[]): Promise<void> {
  const staged = await runCli(["call", "stage_write", "tools", "--store", project.store, ...flags], {
    cwd: project.work.path,
    env: project.env,
  });
  expect(staged.code, staged.stderr).toBe(0);
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? "")
    .join("\n");

async function applyOverMcp(...flags: string[]): Promise<{ text: string; stderr: string }> {
  const server = await startMcpChild(
    ["--store", project.store, "tools", ...flags],
    project.work.path,
    project.env,
  );
  onTestFinished(server.kill);
  const applied = await server.client.callTool({
    name: "resolve",
    arguments: { action: "apply", reason: "the user approved it" },
  });
  server.closeStdin();
  expect(await server.exited).toBe(0);
  return { text: textOf(applied), stderr: server.stderr() };
}

describe("server-store-applies-an-isolated-action-unsandboxed", { timeout: 120_000 }, () => {
  it("mcp --store applies an action staged in a tool host in one, and says so", async () => {
    await stage("--isolate");
    const { text, stderr } = await applyOverMcp();
    expect(text).toContain("wrote out.txt (sandboxed)");
    expect(stderr).toContain("1 pending action staged by a tool in a tool host (--isolate)");
    expect(stderr).toContain("--no-isolate");
  });

  it("mcp --store --no-isolate loads the tools in this process, as the user asked", async () => {
    await stage("--isolate");
    const { text } = await applyOverMcp("--no-isolate");
    expect(text).toContain("wrote out.txt (unsandboxed)");
  });

  it("mcp --store of actions staged in-process loads in-process, as before", async () => {
    await stage();
    const { text, stderr } = await applyOverMcp();
    expect(text).toContain("wrote out.txt (unsandboxed)");
    expect(stderr).not.toContain("tool host");
  });

  it("inspect --store applies an action staged in a tool host in one, and says so", async () => {
    await stage("--isolate");
    const server = await startInspectProcess(
      project.work.path,
      ["tools", "--store", project.store],
      project.env,
    );
    onTestFinished(async () => {
      expect(await server.stop()).toBe(0);
    });
    const response = await postToInspect(server, "/api/resolve", {
      action: "apply",
      reason: "the user approved it",
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain("wrote out.txt (sandboxed)");
    expect(server.output()).toContain("1 pending action staged by a tool in a tool host (--isolate)");
  });
});
