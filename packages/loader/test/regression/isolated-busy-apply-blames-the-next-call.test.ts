// Found by a bug hunt: an isolated action whose apply spun forever was never found out. The
// resolve gave up at its deadline, but nothing checked the tool host, so the next call of any
// tool waited out its whole deadline and was told to retry "with a smaller task"; only the call
// after that found the busy loop. Now a resolve that gives up has the tool host pinged: one
// that does not answer within hangTimeoutMs is stopped, its staged actions reported lost.
import { describe, expect, it } from "vitest";
import type { IsolatedToolHostEvent } from "../../src/index.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

const TOOLS = `
import { Type } from "@sinclair/typebox";
export default () => [
  {
    name: "stage",
    label: "Stage",
    description: "Stages an action whose apply never returns",
    parameters: Type.Object({}),
    async execute(_id, _params, _onUpdate, ctx) {
      ctx.pushPendingAction({ label: "Spin", apply: () => { for (;;) {} } });
      return { content: [{ type: "text", text: "staged" }] };
    },
  },
  {
    name: "quick",
    label: "Quick",
    description: "Answers at once",
    parameters: Type.Object({}),
    async execute() {
      return { content: [{ type: "text", text: "quick answer" }] };
    },
  },
];
`;

describe("an isolated action whose apply spins forever", () => {
  it("gets its tool host stopped once the resolve gives up, so the next call runs in a fresh one", async () => {
    const where = await project({ "tools.ts": TOOLS });
    const { session, isolated } = await load(
      where,
      { mode: "process", hangTimeoutMs: 300 },
      {},
      { pendingPolicy: "allow", resolveTimeoutMs: 300, executeTimeoutMs: 600_000 },
    );
    if (isolated === undefined) throw new Error("no tool host");
    const stopped = new Promise<IsolatedToolHostEvent>((resolve) =>
      isolated.subscribe((event) => {
        if (event.type === "tool-host-stopped") resolve(event);
      }),
    );
    await session.execute({ toolCallId: "1", name: "stage", params: {} });
    const resolved = await session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(text(resolved)).toContain("did not finish within");
    const event = await stopped;
    if (event.type !== "tool-host-stopped") throw new Error("unexpected event");
    expect(event.kind).toBe("hang");
    expect(event.reason).toContain("after its apply was given up (a busy loop?)");
    expect(event.lost.map((record) => record.label)).toEqual(["Spin"]);
    const quick = await session.execute({ toolCallId: "2", name: "quick", params: {} });
    expect(text(quick)).toBe("quick answer");
    expect(session.pending.size).toBe(0);
  });
});
