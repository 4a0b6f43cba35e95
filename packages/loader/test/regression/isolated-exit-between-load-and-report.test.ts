import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

const tool = (name: string, factoryBody = "") => `
import { Type } from "@sinclair/typebox";
export default (pi) => {
  ${factoryBody}
  return { name: "${name}", label: "${name}", description: "Says ok", parameters: Type.Object({}),
    async execute() { return { content: [{ type: "text", text: "ok" }] }; } };
};
`;

/**
 * A tool host wrote its packs' code caches in a later turn of its event loop than the one its
 * load ended in, and only then reported its tools: a timer or callback a module started that
 * ran in between found the load's exit guard already off, and its process.exit ended the tool
 * host before it reported anything. The whole load failed ("stopped before it reported its
 * tools"), the good modules' tools with it, and which way it went depended on the machine's
 * load (the CLI's `validate-isolate` test failed now and then). This module exits at the first
 * turn in which the guard is off, so the gap is hit every time it exists.
 */
describe("an isolated module whose callback exits right after the load", () => {
  it("finds the tools already reported: the load keeps every module's tools", async () => {
    const where = await project({
      "good.ts": tool("good"),
      "late-exit.ts": tool(
        "late_exit",
        `const guarded = process.exit;
        const poll = () => (process.exit === guarded ? setImmediate(poll) : process.exit(3));
        setImmediate(poll);`,
      ),
    });
    const { diagnostics, tools, session } = await load(where, "process");
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(tools.map(({ tool }) => tool.name).sort()).toEqual(["good", "late_exit"]);
    // The exit comes right after the report: the next call says so and starts a fresh tool host.
    const result = await session.execute({ toolCallId: "1", name: "good", params: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/It exited with code 3/);
  });
});
