import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session, toOpenAIRequest } from "../../src/index.js";
import { validateTool } from "../../src/session/validate-tool.js";

/**
 * Failure (real subagent tools, correct code): a tool whose `description` is a getter listing
 * the agents it finds on disk. The session froze the description when the tool was accepted,
 * so agents added later were never offered to the model, and the W_TOOL_ACCESSOR hint told the
 * author to rewrite the getter as a plain value, which would freeze it for good. Fixed: a
 * description getter is read again whenever tool definitions are made (other fields stay as
 * accepted), with no warning; a read that throws keeps the last good description.
 */
function subagentTool(agents: string[], fail: { now: boolean }) {
  return {
    name: "subagent",
    label: "Subagent",
    get description() {
      if (fail.now) throw new Error("agents folder unreadable");
      return `Starts one of: ${agents.join(", ")}.`;
    },
    parameters: Type.Object({ agent: Type.String() }),
    execute: async () => textResult("started"),
  };
}

describe("a description getter", () => {
  it("is read again whenever tool definitions are made, without a warning", () => {
    const agents = ["reviewer"];
    const fail = { now: false };
    const checked = validateTool(subagentTool(agents, fail), { path: "tools/subagent.ts" });
    expect(checked.ok && checked.diagnostics).toEqual([]);
    const session = new Session();
    session.register(subagentTool(agents, fail));
    const description = () =>
      ((toOpenAIRequest(session).tools ?? [])[0] as { function: { description: string } }).function
        .description;
    expect(description()).toBe("Starts one of: reviewer.");
    agents.push("planner");
    expect(description()).toBe("Starts one of: reviewer, planner.");
    fail.now = true;
    expect(description()).toBe("Starts one of: reviewer, planner.");
  });

  it("other getters are still read once, with W_TOOL_ACCESSOR", () => {
    const tool = {
      get name() {
        return "named";
      },
      label: "Named",
      description: "Has a name getter.",
      parameters: Type.Object({}),
      execute: async () => textResult("ok"),
    };
    const checked = validateTool(tool, { path: "tools/named.ts" });
    expect(checked.ok && checked.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "W_TOOL_ACCESSOR",
    ]);
  });
});
