import { describe, expect, it } from "vitest";
import { load, project, text } from "./isolation-helpers.js";

const ECHO = `
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "echo",
  label: "Echo",
  description: "Echoes its text",
  parameters: Type.Object({ text: Type.String() }),
  async execute(id, params, onUpdate, ctx) {
    onUpdate?.({ content: [{ type: "text", text: "working" }] });
    return { content: [{ type: "text", text: params.text + " from " + process.pid }], details: { cwd: ctx.cwd } };
  },
});
`;

describe.each(["none", "process"] as const)("a tool loaded with isolation %s", (isolation) => {
  it("runs with its params, updates and context", async () => {
    const where = await project({ "echo.ts": ECHO });
    const { session, tools, diagnostics } = await load(where, isolation);
    expect(diagnostics).toEqual([]);
    expect(tools.map(({ tool }) => tool.name)).toEqual(["echo"]);
    const updates: string[] = [];
    const result = await session.execute({
      toolCallId: "1",
      name: "echo",
      params: { text: "hi" },
      onUpdate: (partial) => updates.push(text(partial)),
    });
    expect(result.isError).toBeFalsy();
    const pid = Number(text(result).split(" from ")[1]);
    expect(pid === process.pid).toBe(isolation === "none");
    expect(result.details).toEqual({ cwd: where.work });
    expect(updates).toEqual(["working"]);
  });

  it("returns every MCP content type: audio, resource links and embedded resources", async () => {
    const content = [
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///q3.md", name: "q3.md" },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AA==" } },
    ];
    const where = await project({
      "attach.ts": `import { Type } from "@sinclair/typebox";
export default () => ({
  name: "attach",
  label: "Attach",
  description: "Returns attachments",
  parameters: Type.Object({}),
  execute: async () => ({ content: ${JSON.stringify(content)} }),
});
`,
    });
    const { session } = await load(where, isolation);
    expect(await session.execute({ toolCallId: "1", name: "attach", params: {} })).toEqual({ content });
  });

  it("refuses bad arguments with the same message", async () => {
    const where = await project({ "echo.ts": ECHO });
    const { session } = await load(where, isolation);
    const result = await session.execute({ toolCallId: "1", name: "echo", params: { text: 3 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatchInlineSnapshot(`
      "Invalid arguments for tool "echo":
      - /text: Expected string
      Fix the arguments to match the tool's parameters and call it again."
    `);
  });
});

describe("a tool host's tools that print", () => {
  it("do not break its protocol: stdout goes to its stderr", async () => {
    const where = await project({
      "loud.ts": ECHO.replace(
        "async execute(id, params, onUpdate, ctx) {",
        `async execute(id, params, onUpdate, ctx) {
    console.log("{not json");
    process.stdout.write("raw text\\n");`,
      ),
    });
    const { session } = await load(where, "process");
    const result = await session.execute({ toolCallId: "1", name: "echo", params: { text: "still" } });
    expect(text(result)).toMatch(/^still from \d+$/);
  });
});

describe.each(["none", "process"] as const)("onProgress with isolation %s", (isolation) => {
  it("reports each module with its tools", async () => {
    const where = await project({
      "a-echo.ts": ECHO,
      "b-broken.ts": "export default () => { throw new Error('no'); };",
    });
    const reports: Array<{ completed: number; total: number; tools: string[]; diagnostics: number }> = [];
    await load(where, isolation, {
      onProgress: (progress) =>
        reports.push({
          completed: progress.completed,
          total: progress.total,
          tools: progress.tools.map(({ tool }) => tool.name),
          diagnostics: progress.diagnostics,
        }),
    });
    expect(reports).toEqual([
      { completed: 1, total: 2, tools: ["echo"], diagnostics: 0 },
      { completed: 2, total: 2, tools: [], diagnostics: 1 },
    ]);
  });
});
