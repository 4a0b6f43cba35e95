import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi keeps an
// extension's tools by name, so a second `registerTool` of a name replaces the first (an
// extension that registers a default and then the one its settings ask for). Tooldock kept
// the first and refused the second (E_NAME_CONFLICT): the model got the tool pi would have
// replaced.
const MODULE = `
import { Type } from "@sinclair/typebox";
const tool = (name, says) => ({
  name,
  label: name,
  description: "Says who it is",
  parameters: Type.Object({}),
  async execute() { return { content: [{ type: "text", text: says }], details: {} }; },
});
export default function (pi) {
  pi.registerTool(tool("lookup", "default lookup"));
  pi.registerTool(tool("other", "other"));
  pi.registerTool(tool("lookup", "configured lookup"));
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension that registers a tool name twice (isolation %s)",
  (isolation) => {
    it("gets the later one, in the first one's place, as in pi", async () => {
      const where = await project({ "twice.ts": MODULE });
      const { session, tools, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      expect(tools.map(({ tool }) => tool.name)).toEqual(["lookup", "other"]);
      const result = await session.execute({ toolCallId: "1", name: "lookup", params: {} });
      expect(text(result)).toBe("configured lookup");
    });
  },
);
