import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a bug hunt of pi's extension dialect: a session_start handler run at load (the
// extension registers its tools there) that read ctx.sessionManager, which pi always gives,
// failed the module as E_FACTORY_THROW "Cannot read properties of undefined".
const MODULE = `export default (pi) => {
  pi.on("session_start", async (_event, ctx) => {
    const earlier = ctx.sessionManager.getBranch().length;
    pi.registerTool({
      name: "restored",
      label: "Restored",
      description: "Says how many entries it found at start",
      parameters: pi.typebox.Type.Object({}),
      async execute() { return { content: [{ type: "text", text: "entries: " + earlier }] }; },
    });
  });
};
`;

describe.each([undefined, "process"] as const)(
  "an extension whose session_start reads the conversation at load (isolation %s)",
  (isolation) => {
    it("loads its tools, the conversation empty", async () => {
      const where = await project({ "restore.ts": MODULE });
      const { session, tools, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      expect(tools.map(({ tool }) => tool.name)).toEqual(["restored"]);
      const result = await session.execute({ toolCallId: "1", name: "restored", params: {} });
      expect(text(result)).toBe("entries: 0");
    });
  },
);
