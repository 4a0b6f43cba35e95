// End to end: the BUILT `tooldock` (build first: pnpm build), since what is tested is whether
// the process survives.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { assertBuilt, runCli } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { workFolder } from "../memory-io.js";

// Attack: a tool returns, and what it left running throws afterwards: a timer throws, a
// timer starts a promise that rejects, a child process's `close` handler throws. Node's
// default ended `tooldock call` (exit 1, the pending action's reject never ran) and
// `tooldock mcp` (the client lost its server).
const MODULE = `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export default (pi) => [
  {
    name: "leaves_faults",
    label: "Leaves faults",
    description: "Returns, then throws and rejects from what it left running.",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => {
      let closed;
      const childClosed = new Promise((resolve) => { closed = resolve; });
      setTimeout(() => { throw new Error("late throw from a timer"); }, 20);
      setTimeout(() => { Promise.reject(new Error("late rejection from a timer")); }, 40);
      spawn(process.execPath, ["-e", ""]).on("close", () => {
        closed();
        throw new Error("late throw from a close handler");
      });
      pi.pushPendingAction({
        label: "left pending",
        apply: async () => ({ content: [{ type: "text", text: "applied" }] }),
        reject: async () => {
          await Promise.all([childClosed, wait(100)]);
          writeFileSync(join(pi.cwd, "rejected"), "x");
        },
      });
      return { content: [{ type: "text", text: "returned" }] };
    },
  },
  {
    name: "still_here",
    label: "Still here",
    description: "Answers.",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => ({ content: [{ type: "text", text: "still here" }] }),
  },
];
`;

const FAULTS = ["late throw from a timer", "late rejection from a timer", "late throw from a close handler"];

beforeAll(assertBuilt);

describe("faults thrown after a call returned", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  const cleanups: Array<() => void> = [];

  beforeEach(async () => {
    folder = await workFolder({ "tools/faults.mjs": MODULE });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    await folder.remove();
  });

  it("tooldock call reports them on stderr, goes on, and discards the pending action through its reject", async () => {
    const run = await runCli(["call", "leaves_faults", "tools"], { cwd: folder.path, env: folder.env });
    expect(run.stderr).not.toContain("internal error");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("returned");
    expect(run.stdout).toContain("Pending actions (1, top first");
    for (const fault of FAULTS) expect(run.stderr).toContain(fault);
    expect(run.stderr).toContain("(reported; tooldock goes on)");
    expect(existsSync(join(folder.path, "rejected"))).toBe(true);
  });

  it("tooldock mcp logs them to the client and stderr, keeps serving, and exits 0 when the client goes", async () => {
    const server = await startMcpChild(["tools"], folder.path, folder.env);
    cleanups.push(server.kill);
    const first = await server.client.callTool({ name: "leaves_faults", arguments: {} });
    expect(first.isError).toBeFalsy();
    await vi.waitFor(() => expect(server.logs.join("\n")).toContain(FAULTS[2]), { timeout: 15_000 });
    for (const fault of FAULTS) expect(server.logs.join("\n")).toContain(fault);
    await server.client.callTool({ name: "resolve", arguments: { action: "discard", reason: "test" } });
    const second = await server.client.callTool({ name: "still_here", arguments: {} });
    expect(second.content).toEqual([{ type: "text", text: "still here" }]);
    server.closeStdin();
    expect(await server.exited).toBe(0);
    for (const fault of FAULTS) expect(server.stderr()).toContain(fault);
    expect(existsSync(join(folder.path, "rejected"))).toBe(true);
  });
});
