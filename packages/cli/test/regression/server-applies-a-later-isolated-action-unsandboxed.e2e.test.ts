import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli } from "../cli-process.js";
import { postToInspect, startInspectProcess } from "../inspect-browser.js";
import { startMcpChild } from "../mcp-child.js";
import { storeProjectEachTest, WRITE_TOOLS } from "../store-project.js";

// server-applies-a-later-isolated-action-unsandboxed: `tooldock mcp --store` started on an
// empty session loads its tools in its own process; `tooldock call --isolate --store` then
// staged an action there with a tool the user does not trust, the server read it before the
// client's next call, and the client's `resolve` ran its handler in the server's process,
// unsandboxed. Such a server's session now refuses to resolve it (the runtime's refusal of an
// action staged in a tool host to a handler of this process), and the server says how to: a
// restart (which loads the tools in a tool host) or `tooldock pending`.
const project = storeProjectEachTest(WRITE_TOOLS);

const cli = (...args: string[]) => runCli(args, { cwd: project.work.path, env: project.env });

describe("server-applies-a-later-isolated-action-unsandboxed", { timeout: 60_000 }, () => {
  it("mcp --store refuses to resolve an action staged in a tool host after it loaded in-process", async () => {
    const server = await startMcpChild(["--store", project.store, "tools"], project.work.path, project.env);
    onTestFinished(server.kill);
    await server.client.listTools();
    const staged = await cli("call", "stage_write", "tools", "--isolate", "--store", project.store);
    expect(staged.code, staged.stderr).toBe(0);
    for (const action of ["apply", "discard"]) {
      const refused = await server.client.callTool({ name: "resolve", arguments: { action, reason: "ok" } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused)).toContain("was staged by a tool in a tool host");
      expect(JSON.stringify(refused)).toContain("nothing was applied or discarded");
      expect(JSON.stringify(refused)).toContain("tooldock pending");
    }
    expect(existsSync(join(project.work.path, "out.txt"))).toBe(false);
    server.closeStdin();
    expect(await server.exited).toBe(0);
    const listed = await cli("pending", "list", "--store", project.store);
    expect(listed.stdout).toContain("Write out.txt");
  });

  it("mcp --store --no-isolate resolves it in this process, as the user asked", async () => {
    const server = await startMcpChild(
      ["--store", project.store, "tools", "--no-isolate"],
      project.work.path,
      project.env,
    );
    onTestFinished(server.kill);
    await server.client.listTools();
    expect((await cli("call", "stage_write", "tools", "--isolate", "--store", project.store)).code).toBe(0);
    const applied = await server.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "ok" },
    });
    expect(JSON.stringify(applied)).toContain("wrote out.txt");
    server.closeStdin();
    expect(await server.exited).toBe(0);
  });

  it("inspect --store refuses the page's Apply of it the same way", async () => {
    const server = await startInspectProcess(
      project.work.path,
      ["tools", "--store", project.store],
      project.env,
    );
    onTestFinished(async () => {
      expect(await server.stop()).toBe(0);
    });
    expect((await cli("call", "stage_write", "tools", "--isolate", "--store", project.store)).code).toBe(0);
    const response = await postToInspect(server, "/api/resolve", { action: "apply", reason: "ok" });
    const answer = JSON.stringify(await response.json());
    expect(answer).toContain("was staged by a tool in a tool host");
    expect(answer).toContain("tooldock pending");
    expect(existsSync(join(project.work.path, "out.txt"))).toBe(false);
  });
});
