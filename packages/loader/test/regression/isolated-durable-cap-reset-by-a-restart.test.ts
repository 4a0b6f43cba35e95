// Attack, found by a second read of the fix for actions that left their stack: the durable cap
// was kept per tool host process ("a fresh tool host starts from none"), but durable actions
// outlive the process in the session's store. A module that gets its own tool host stopped
// (here: by flooding callback actions; `restart` is on by default) started the next call from a
// count of 0 and staged 1,000 more durable actions (each up to 1,000,000 characters of payload)
// every round: the host's store held as many as the module liked. The count now lives as long
// as the isolated load.
import { describe, expect, it } from "vitest";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { load, project } from "../isolation/isolation-helpers.js";

const HOSTILE = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "hostile",
  label: "Hostile",
  description: "Stages durable actions, then gets its tool host stopped",
  parameters: Type.Object({ durable: Type.Number() }),
  actions: { noop: { async apply() { return { content: [] }; } } },
  async execute(_id, { durable }, _onUpdate, ctx) {
    for (let i = 0; i < durable; i += 1) ctx.pushPendingAction({ label: "durable", handler: "noop", payload: i });
    for (let i = 0; i <= ${MAX_STAGED_ACTIONS}; i += 1) ctx.pushPendingAction({ label: "cb", apply: async () => ({ content: [] }) });
    return { content: [{ type: "text", text: "done" }] };
  },
});
`;

describe("the durable cap across tool host restarts", { timeout: 120_000 }, () => {
  it("holds for what is pending in the host, not per process", async () => {
    const where = await project({ "hostile.ts": HOSTILE });
    const { session, isolated } = await load(where, "process", {}, { pendingPolicy: "allow" });
    let stops = 0;
    isolated?.subscribe((event) => {
      if (event.type === "tool-host-stopped") stops += 1;
    });
    for (let round = 0; round < 3; round += 1)
      await session.execute({
        toolCallId: `c${round}`,
        name: "hostile",
        params: { durable: MAX_STAGED_ACTIONS - 1 },
      });
    const durable = session.pending.list().filter((record) => record.handler === "noop").length;
    console.log(`tool host stops: ${stops}; durable actions pending at once: ${durable}`);
    expect(durable).toBeLessThanOrEqual(MAX_STAGED_ACTIONS);
  });
});
