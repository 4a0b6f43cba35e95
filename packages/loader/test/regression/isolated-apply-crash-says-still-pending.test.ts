// Found by a bug hunt: when a tool host died while it applied an action, `resolve` answered
// "Apply failed … The action is lost and was removed.. The action is still pending (id …).
// Fix the cause and call resolve with action "apply" again": a failed apply keeps its action,
// so the Session put it back, and the tool host's stand-in removed it a moment later. The model
// was told to retry an action that was gone, and the tool host's stop reported the others it
// lost but not this one.
import { describe, expect, it } from "vitest";
import type { IsolatedToolHostEvent } from "../../src/index.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

const STAGE = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stage",
  label: "Stage",
  description: "Stages an action that may kill its own process when applied",
  parameters: Type.Object({ label: Type.String(), crash: Type.Boolean() }),
  async execute(_id, params, _onUpdate, ctx) {
    ctx.pushPendingAction({
      label: params.label,
      async apply() {
        if (params.crash) process.kill(process.pid, "SIGKILL");
        return { content: [{ type: "text", text: "applied " + params.label }] };
      },
    });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe("an isolated action whose tool host dies while it is applied", () => {
  it("is reported lost, removed at once, and listed with the others the stop took", async () => {
    const where = await project({ "stage.ts": STAGE });
    const { session, isolated } = await load(where, "process", {}, { pendingPolicy: "allow" });
    if (isolated === undefined) throw new Error("no tool host");
    const stopped = new Promise<IsolatedToolHostEvent>((resolve) =>
      isolated.subscribe((event) => {
        if (event.type === "tool-host-stopped") resolve(event);
      }),
    );
    const discarded: string[] = [];
    session.subscribe((event) => {
      if (event.type === "action-discarded") discarded.push(event.record.label);
    });
    await session.execute({ toolCallId: "1", name: "stage", params: { label: "below", crash: false } });
    await session.execute({ toolCallId: "2", name: "stage", params: { label: "top", crash: true } });
    const resolved = await session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(resolved.isError).toBe(true);
    expect(text(resolved)).toContain('Apply failed for "top": The tool host that staged it stopped.');
    expect(text(resolved)).toContain("can never be applied");
    expect(text(resolved)).not.toContain("still pending");
    const event = await stopped;
    if (event.type !== "tool-host-stopped") throw new Error("unexpected event");
    expect(event.lost.map((record) => record.label).sort()).toEqual(["below", "top"]);
    expect(event.diagnostics[0]?.message).toContain('"top"');
    expect(session.pending.size).toBe(0);
    expect(discarded.sort()).toEqual(["below", "top"]);
  });

  // Found by the second read: an apply sent after the host had begun to stop its tool host
  // (here for a protocol breach) but before the process exited got the stop at once, and the
  // stop's event, which came with the exit, no longer listed the action.
  it("is listed as lost when its apply was sent between the tool host's kill and its exit", async () => {
    const where = await project({
      "stage.ts": STAGE,
      "breach.ts": `
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "breach",
  label: "Breach",
  description: "Listens on more channels than a tool host may, once its call has returned",
  parameters: Type.Object({}),
  async execute() {
    setTimeout(() => { for (let i = 0; i < 1005; i++) pi.events.on("channel-" + i, () => {}); }, 10);
    return { content: [{ type: "text", text: "scheduled" }] };
  },
});
`,
    });
    const { session, isolated } = await load(where, "process", {}, { pendingPolicy: "allow" });
    if (isolated === undefined) throw new Error("no tool host");
    const stopped = new Promise<IsolatedToolHostEvent>((resolve) =>
      isolated.subscribe((event) => {
        if (event.type === "tool-host-stopped") resolve(event);
      }),
    );
    await session.execute({ toolCallId: "1", name: "stage", params: { label: "A", crash: false } });
    await session.execute({ toolCallId: "2", name: "breach", params: {} });
    // The host drops the process as it kills it, before the exit: wait for that moment.
    await new Promise<void>((resolve) => {
      const check = () => (isolated.pid === undefined ? resolve() : setImmediate(check));
      check();
    });
    const resolved = await session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(text(resolved)).toContain("can never be applied");
    const event = await stopped;
    if (event.type !== "tool-host-stopped") throw new Error("unexpected event");
    expect(event.kind).toBe("protocol");
    expect(event.lost.map((record) => record.label)).toEqual(["A"]);
    expect(event.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_ACTIONS_LOST"]);
  });
});
