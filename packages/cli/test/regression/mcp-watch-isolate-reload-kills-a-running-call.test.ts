// Found by a bug hunt: under `mcp --watch --isolate` (and `inspect --isolate`), a reload closed
// the previous tool host at once when nothing was pending, so a call still running there (any
// tool, after a save of any file) answered "its tool host stopped. The host closed it." The
// loader's watch already lets the calls of a replaced tool host answer before it retires, as
// an in-process reload does.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { serveMcp } from "../../src/mcp/serve-mcp.js";
import { memoryPipes, textOf } from "../mcp-in-memory.js";

/** Says it started (a progress notification), then answers once `release.txt` is in its folder. */
const SLOW = `
import { existsSync } from "node:fs";
import { join } from "node:path";
export default (pi: any) => ({
  name: "slow",
  label: "Slow",
  description: "Answers once it is released",
  parameters: pi.typebox.Type.Object({}),
  async execute(_id: string, _params: unknown, onUpdate: any, ctx: any) {
    onUpdate?.({ content: [{ type: "text", text: "started" }] });
    while (!existsSync(join(ctx.cwd, "release.txt"))) await new Promise((resolve) => setTimeout(resolve, 10));
    return { content: [{ type: "text", text: "slow done" }] };
  },
});
`;

const echo = (text: string) => `export default (pi: any) => ({
  name: "other",
  label: "Other",
  description: ${JSON.stringify(text)},
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: ${JSON.stringify(text)} }] }; },
});
`;

describe("mcp --watch --isolate", () => {
  it("lets a call running in the replaced tool host answer after a reload", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "tooldock-mcp-watch-running-"));
    const { toServer, fromServer, stderr } = memoryPipes();
    try {
      await writeFile(join(cwd, "slow.ts"), SLOW);
      await writeFile(join(cwd, "other.ts"), echo("other v1"));
      const served = serveMcp({
        paths: ["."],
        cwd,
        stdin: toServer,
        stdout: fromServer,
        stderr,
        watch: true,
        debounceMs: 20,
        isolation: { mode: "process" },
      });
      const client = new Client({ name: "unit", version: "1.0.0" });
      const waiters: Array<() => void> = [];
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        for (const wake of waiters.splice(0)) wake();
      });
      await client.connect(new StdioServerTransport(fromServer, toServer));

      let started: () => void = () => {};
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const call = client.callTool({ name: "slow", arguments: {} }, undefined, {
        onprogress: () => started(),
      });
      await running;
      // A save of another file: wait for the reload that saw it whole.
      await writeFile(join(cwd, "other.ts"), echo("other v2"));
      let description = "";
      while (description !== "other v2") {
        await new Promise<void>((resolve) => waiters.push(resolve));
        const { tools } = await client.listTools();
        description = tools.find((tool) => tool.name === "other")?.description ?? "";
      }
      await writeFile(join(cwd, "release.txt"), "go");
      const answer = await call;
      expect(textOf(answer)).toBe("slow done");
      expect(answer.isError).not.toBe(true);
      toServer.end();
      await served;
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
