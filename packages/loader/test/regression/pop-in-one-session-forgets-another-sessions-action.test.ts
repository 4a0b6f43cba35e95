// Found by a second read of the fix for actions that left their stack: a departure was matched
// to a staged action by record id alone, not by the store it left. Record ids are unique per
// store only when the store's `createId` makes them so (a documented option; a host may number
// each session's actions 1, 2, 3…): popping session X's action made the tool host forget
// session Y's action of the same id.
import { PendingActionStore, Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { load, project, text } from "../isolation/isolation-helpers.js";

const STAGER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stager",
  label: "Stager",
  description: "Stages a callback action",
  parameters: Type.Object({}),
  async execute(_id, _params, _onUpdate, ctx) {
    ctx.pushPendingAction({ label: "write " + ctx.sessionId, apply: async () => ({ content: [{ type: "text", text: "applied in " + ctx.sessionId }] }) });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

const numbered = () => {
  let next = 0;
  return new PendingActionStore({
    createId: () => {
      next += 1;
      return String(next);
    },
  });
};

describe("an action left in one session", () => {
  it("leaves the same-numbered action of another session alone", async () => {
    const where = await project({ "stager.ts": STAGER });
    const { tools } = await load(where, "process", {}, { pendingPolicy: "allow" });
    const x = new Session({ sessionId: "x", cwd: where.work, pending: numbered(), pendingPolicy: "allow" });
    const y = new Session({ sessionId: "y", cwd: where.work, pending: numbered(), pendingPolicy: "allow" });
    for (const { tool } of tools) {
      x.register(tool);
      y.register(tool);
    }
    expect(text(await y.execute({ toolCallId: "1", name: "stager", params: {} }))).toBe("staged");
    expect(text(await x.execute({ toolCallId: "1", name: "stager", params: {} }))).toBe("staged");
    expect(x.pending.pop()?.label).toBe("write x"); // X's host drops its own action
    const applied = await y.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "ok" },
    });
    expect(text(applied)).toContain("applied in y");
    await x.dispose();
    await y.dispose();
  });
});
