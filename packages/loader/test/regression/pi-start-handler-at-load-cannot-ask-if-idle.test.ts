import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): every ExtensionContext
// of pi has isIdle(). The context an extension's session_start handlers get when Tooldock runs
// them at load (the extension registers its tools there) had none, so a handler that checked
// whether the agent was busy before it set up failed the module (E_FACTORY_THROW "ctx.isIdle is
// not a function"). At load no agent runs: idle.
const MODULE = `
export default (pi) => {
  pi.on("session_start", async (_event, ctx) => {
    const idle = ctx.isIdle();
    pi.registerTool({
      name: "started_idle",
      label: "Started idle",
      description: "Says whether the agent was idle when the session started",
      parameters: pi.typebox.Type.Object({}),
      async execute() { return { content: [{ type: "text", text: "idle: " + idle }] }; },
    });
  });
};
`;

describe.each([undefined, "process"] as const)(
  "an extension whose session_start asks whether the agent is idle, at load (isolation %s)",
  (isolation) => {
    it("loads its tools: the agent is idle", async () => {
      const where = await project({ "idle.ts": MODULE });
      const { session, tools, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      expect(tools.map(({ tool }) => tool.name)).toEqual(["started_idle"]);
      const result = await session.execute({ toolCallId: "1", name: "started_idle", params: {} });
      expect(text(result)).toBe("idle: true");
    });
  },
);
