// Found by a review: an isolated load reads whether the host has a UI when it hands the tool
// host its load. A host's UI source (`ToolHost`'s `ui` function) that threw there left an
// unhandled rejection in the host (which ends a Node host by default) and the load waited out
// `loadTimeoutMs`, then blamed the modules: "It did not load its modules within … ms". In
// process, tools that do not use the UI never notice; now isolated ones do not either: a UI
// source that throws counts as no UI (a question gets the answer of none).
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

const TOOLS = `
import { Type } from "@sinclair/typebox";
export default (pi) => [
  {
    name: "plain",
    label: "Plain",
    description: "Uses no UI",
    parameters: Type.Object({}),
    async execute() { return { content: [{ type: "text", text: "plain: " + pi.hasUI }] }; },
  },
  {
    name: "asks",
    label: "Asks",
    description: "Asks the user",
    parameters: Type.Object({}),
    async execute() {
      const answer = await pi.ui.confirm("Sure?", "really").catch((error) => "refused: " + error.message);
      return { content: [{ type: "text", text: String(answer) }] };
    },
  },
];
`;

describe("an isolated load whose host's UI source throws", () => {
  it("loads, its tools run, and a question gets the answer of no UI", async () => {
    const where = await project({ "tools.ts": TOOLS });
    const host = new ToolHost({
      cwd: where.work,
      ui: () => {
        throw new Error("the UI source broke");
      },
    });
    // A deadline far beyond a load's time: before the fix, the load waited all of it.
    const { session, tools, diagnostics } = await load(
      where,
      { mode: "process", loadTimeoutMs: 20_000 },
      { host },
    );
    expect(diagnostics).toEqual([]);
    expect(tools.map(({ tool }) => tool.name)).toEqual(["plain", "asks"]);
    expect(text(await session.execute({ toolCallId: "1", name: "plain", params: {} }))).toBe("plain: false");
    expect(text(await session.execute({ toolCallId: "2", name: "asks", params: {} }))).toBe("false");
  });
});
