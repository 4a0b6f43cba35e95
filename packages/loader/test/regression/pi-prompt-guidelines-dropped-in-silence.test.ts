import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): a tool given to
// `pi.registerTool` may carry `promptGuidelines`, bullets pi adds to its system prompt while the
// tool is active (when to use it, what never to do with it). A Tooldock host has no system
// prompt and gives the model only the description, so they never reached the model, and
// nothing said so. Now one W_EXTENSION_FEATURE per module says they are not used and where to
// put them instead. (`promptSnippet` needs none: pi falls back to the description, which the
// model reads here.)
const MODULE = `
import { Type } from "@sinclair/typebox";
const tool = (name, extra) => ({
  name,
  label: name,
  description: "Deletes a branch",
  parameters: Type.Object({}),
  ...extra,
  async execute() { return { content: [{ type: "text", text: "deleted" }], details: {} }; },
});
export default function (pi) {
  pi.registerTool(tool("prune", { promptSnippet: "Delete merged branches", promptGuidelines: ["Never prune main."] }));
  pi.registerTool(tool("prune_all", { promptGuidelines: ["Ask the user first."] }));
  pi.registerTool(tool("list", { promptSnippet: "List branches", promptGuidelines: [] }));
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension whose tools give the model guidelines (isolation %s)",
  (isolation) => {
    it("loads them with one W_EXTENSION_FEATURE saying the model will not read the guidelines", async () => {
      const where = await project({ "prune.ts": MODULE });
      const { tools, diagnostics } = await load(where, isolation);
      expect(tools.map(({ tool }) => tool.name)).toEqual(["prune", "prune_all", "list"]);
      expect(diagnostics.map(({ code, severity }) => [code, severity])).toEqual([
        ["W_EXTENSION_FEATURE", "warning"],
      ]);
      expect(diagnostics[0]?.message).toContain("promptGuidelines");
      expect(diagnostics[0]?.message).toContain("prune.ts");
      expect(diagnostics[0]?.hint).toContain("description");
    });
  },
);
