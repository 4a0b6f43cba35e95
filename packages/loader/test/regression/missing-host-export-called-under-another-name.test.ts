import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

// Found by a bug hunt of pi's extension dialect: a tool calling a name Tooldock's stand-in for
// a host package lacks (pi's createReadTool) failed with "missing is not a function", a name the
// tool never wrote; every absent name was one binding called `missing`.
describe("a call of a name the host package's stand-in lacks", () => {
  it("fails naming what the tool imported", async () => {
    const where = await project({
      "reads.ts": `import { createReadTool } from "@mariozechner/pi-coding-agent";
export default (pi) => ({
  name: "reads",
  label: "Reads",
  description: "Uses pi's read tool",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: String(createReadTool("/")) }] };
  },
});
`,
    });
    const { session, diagnostics } = await load(where, undefined, { compiler: "esbuild" });
    expect(diagnostics.map(({ code }) => code)).toEqual(["W_HOST_EXPORT_MISSING"]);
    const result = await session.execute({ toolCallId: "1", name: "reads", params: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("createReadTool$missing is not a function");
  });
});
