import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

// A subagent tool lists the agents it finds on disk in a description getter. In-process the
// session reads the getter at every use; in a tool host the proxy had the description read at
// load, so agents added later never reached the model.
const agentsTool = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "subagent",
  label: "Subagent",
  get description() {
    return "Starts one of: " + readFileSync(join(pi.cwd, "agents.txt"), "utf8").trim();
  },
  parameters: Type.Object({}),
  async execute() {
    return { content: [{ type: "text", text: "started" }] };
  },
});
`;

describe("an isolated tool's description getter", () => {
  it("is read again in the tool host: a listing shows what the getter gave at the listing before", async () => {
    const where = await project({ "subagent.ts": agentsTool });
    await writeFile(join(where.work, "agents.txt"), "scout");
    const { session, diagnostics } = await load(where, "process");
    expect(diagnostics).toEqual([]);
    const described = () => session.get("subagent")?.description;
    expect(described()).toBe("Starts one of: scout");

    await writeFile(join(where.work, "agents.txt"), "scout, planner");
    // Each read asks the tool host again; the answer arrives for a later read.
    while (described() !== "Starts one of: scout, planner") await new Promise(setImmediate);
    expect(described()).toBe("Starts one of: scout, planner");
  });
});
