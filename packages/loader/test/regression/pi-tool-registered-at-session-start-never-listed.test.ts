import type { Diagnostic } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { reportSessionHookFailures } from "../../src/index.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi adds a tool an
// extension registers in its session_start handler to the agent's tools. An extension that
// registers one tool in its factory and another when the session starts got only the first in
// Tooldock (its session_start handlers run at load only when the factory registered none), and
// nothing said the second was dropped. Now the session's start reports it, as a
// W_ON_SESSION_FAILED warning that names the tool and says where to register it.
const MODULE = `
import { Type } from "@sinclair/typebox";
const tool = (name) => ({
  name,
  label: name,
  description: "Says its name",
  parameters: Type.Object({}),
  async execute() { return { content: [{ type: "text", text: name }], details: {} }; },
});
export default function (pi) {
  let started = 0;
  pi.registerTool({ ...tool("always"), async execute() { return { content: [{ type: "text", text: "starts=" + started }], details: {} }; } });
  pi.on("session_start", () => {
    pi.registerTool(tool("always"));
    pi.registerTool(tool("when_started"));
    started += 1;
  });
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension that registers a tool when the session starts, besides its factory's (isolation %s)",
  (isolation) => {
    it("loads the factory's; the session's start warns that the other never reaches the model", async () => {
      const where = await project({ "late.ts": MODULE });
      const { session, tools, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      expect(tools.map(({ tool }) => tool.name)).toEqual(["always"]);
      const reported: Diagnostic[] = [];
      reportSessionHookFailures(session, tools, (diagnostic) => reported.push(diagnostic));
      await session.start();
      expect(reported.map(({ code, severity }) => [code, severity])).toEqual([
        ["W_ON_SESSION_FAILED", "warning"],
      ]);
      // Only the new name: "always" was loaded, its second registration is pi's replacement.
      expect(reported[0]?.message).toContain('registered "when_started" with pi.registerTool');
      expect(reported[0]?.message).toContain("factory");
      // The handler ran to its end: the warning comes after it.
      const result = await session.execute({ toolCallId: "1", name: "always", params: {} });
      expect(text(result)).toBe("starts=1");
    });
  },
);
