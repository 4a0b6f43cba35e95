import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { memoryPipes, textOf } from "../../test/mcp-in-memory.js";
import { serveMcp } from "./serve-mcp.js";

/** A tool `name` that stages `<version>: <label>`; applying it answers `<version> applied <label>`. */
const stagingTool = (name: string, version: string) => `export default (pi: any) => ({
  name: ${JSON.stringify(name)},
  label: "Stage",
  description: "Stages a change (${version}).",
  parameters: pi.typebox.Type.Object({ label: pi.typebox.Type.String() }),
  async execute(_id: string, params: { label: string }) {
    pi.pushPendingAction({
      label: ${JSON.stringify(version)} + ": " + params.label,
      apply: async () => ({ content: [{ type: "text" as const, text: ${JSON.stringify(version)} + " applied " + params.label }] }),
    });
    return { content: [{ type: "text" as const, text: ${JSON.stringify(version)} + " staged " + params.label }] };
  },
});
`;

describe("serveMcp with watch", () => {
  it("reloads an edited tool, sends list_changed, and keeps the pending action", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "tooldock-serve-mcp-watch-"));
    const { toServer, fromServer, stderr, stderrText } = memoryPipes();
    try {
      await writeFile(join(cwd, "stage.ts"), stagingTool("stage", "v1"));
      const served = serveMcp({
        paths: ["."],
        cwd,
        stdin: toServer,
        stdout: fromServer,
        stderr,
        watch: true,
        debounceMs: 20,
      });
      const client = new Client({ name: "unit", version: "1.0.0" });
      const waiters: Array<() => void> = [];
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        for (const wake of waiters.splice(0)) wake();
      });
      const nextListChanged = () => new Promise<void>((resolve) => waiters.push(resolve));
      await client.connect(new StdioServerTransport(fromServer, toServer));

      // `resolve` is listed from the start (the default, resolve: "always"): staging changes no list.
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["resolve", "stage"]);
      expect(textOf(await client.callTool({ name: "stage", arguments: { label: "one" } }))).toContain(
        "v1 staged one",
      );

      // Wait for the reload that saw the whole new file (a list_changed per reload).
      let description = "";
      await writeFile(join(cwd, "stage.ts"), stagingTool("stage", "v2"));
      while (!description.includes("v2")) {
        await nextListChanged();
        const { tools } = await client.listTools();
        description = tools.find((tool) => tool.name === "stage")?.description ?? "";
      }
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["resolve", "stage"]);
      expect(stderrText()).toContain(
        "tooldock mcp: reloaded after a change: added none; removed none; replaced stage",
      );

      const applied = await client.callTool({
        name: "resolve",
        arguments: { action: "apply", reason: "ok" },
      });
      expect(textOf(applied)).toContain("v1 applied one");
      expect(textOf(await client.callTool({ name: "stage", arguments: { label: "two" } }))).toContain(
        "v2 staged two",
      );
      toServer.end();
      const result = await served;
      expect(result.tools).toEqual(["stage"]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
