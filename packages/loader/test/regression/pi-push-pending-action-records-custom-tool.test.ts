import { describe, expect, it } from "vitest";
import { load, project } from "../isolation/isolation-helpers.js";

/**
 * Failure (issue 27, item 4): `pi.pushPendingAction`, the form both READMEs teach, recorded
 * `custom_tool` as the action's source even while a tool's call was running; only
 * `ctx.pushPendingAction` named the tool. Hosts that show "which tool wants to do this" showed
 * `custom_tool`. Fixed: a push during a call names the calling tool, whichever way it is made.
 */
const STAGER = `
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "stager",
  label: "Stager",
  description: "Stages two actions",
  parameters: Type.Object({}),
  async execute(id, params, onUpdate, ctx) {
    pi.pushPendingAction({ label: "via pi", apply: async () => ({ content: [] }) });
    ctx.pushPendingAction({ label: "via ctx", apply: async () => ({ content: [] }) });
    pi.pushPendingAction({ label: "named", sourceToolName: "other", apply: async () => ({ content: [] }) });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe.each(["none", "process"] as const)(
  "pi.pushPendingAction during a call, isolation %s",
  (isolation) => {
    it("records the calling tool as the source, as ctx.pushPendingAction does", async () => {
      const where = await project({ "stager.ts": STAGER });
      const { session, diagnostics } = await load(where, isolation);
      expect(diagnostics).toEqual([]);
      await session.execute({ toolCallId: "1", name: "stager", params: {} });
      expect(session.pending.list().map(({ label, sourceToolName }) => ({ label, sourceToolName }))).toEqual([
        { label: "named", sourceToolName: "other" },
        { label: "via ctx", sourceToolName: "stager" },
        { label: "via pi", sourceToolName: "stager" },
      ]);
    });
  },
);
