import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by a drift check against pi 0.58.3 (badlogic/pi-mono 83378aa): pi's ExtensionContext
// has `getContextUsage()`, `compact(options)` and `getSystemPrompt()`, and its model registry
// `isUsingOAuth`, `getError` and `refresh`. Tooldock's context had none of them, so an
// extension's tool or session_start handler that read its context usage (as pi's
// trigger-compact example does) threw "ctx.getContextUsage is not a function".
const MODULE = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
  let atStart = "not run";
  pi.on("session_start", (_event, ctx) => {
    atStart = String(ctx.getContextUsage());
    pi.registerTool({
      name: "budget",
      label: "Budget",
      description: "Reports the context budget and asks for a compaction",
      parameters: Type.Object({}),
      async execute(_toolCallId, _params, _signal, _onUpdate, ctx) {
        const usage = ctx.getContextUsage();
        let compacted = "no answer";
        ctx.compact({
          customInstructions: "keep the plan",
          onComplete: () => { compacted = "done"; },
          onError: (error) => { compacted = "error: " + error.message; },
        });
        const model = { provider: "anthropic", id: "claude-x" };
        ctx.modelRegistry.refresh();
        const text = [
          "start=" + atStart,
          "usage=" + String(usage),
          "prompt=" + JSON.stringify(ctx.getSystemPrompt()),
          "oauth=" + ctx.modelRegistry.isUsingOAuth(model),
          "registry=" + String(ctx.modelRegistry.getError()),
          "compact=" + compacted,
        ].join(" ");
        return { content: [{ type: "text", text }], details: {} };
      },
    });
  });
}
`;

describe.each([undefined, "process"] as const)(
  "a pi extension that reads its context budget (isolation %s)",
  (isolation) => {
    it("gets pi's answers for a host that knows no usage, no prompt, and compacts nothing", async () => {
      const where = await project({ "budget.ts": MODULE });
      const { session, tools, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      expect(tools.map(({ tool }) => tool.name)).toEqual(["budget"]);
      const result = await session.execute({ toolCallId: "1", name: "budget", params: {} });
      expect(result.isError).not.toBe(true);
      const answer = text(result);
      expect(answer).toMatch(
        /^start=undefined usage=undefined prompt="" oauth=false registry=undefined compact=error: /,
      );
      expect(answer).toContain("does not compact");
    });
  },
);
