import { describe, expect, it } from "vitest";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

// Found by review: a tool host may hold at most MAX_STAGED_ACTIONS pending actions at once, but
// the host counted actions that had already left their stack. Durable pushes counted for the
// tool host's whole life (applied ones too, and pushes the store refused), and a callback
// action the host took off with `pending.pop()` or `remove()` stayed counted (and its closure
// stayed in the tool host) for good: a long-running server's tool host was stopped for
// "staging more than 1,000" after its thousandth action, though none was pending.
const STAGER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stager",
  label: "Stager",
  description: "Stages one action a call: durable, durable with an unknown handler, or a callback",
  parameters: Type.Object({ kind: Type.String(), times: Type.Optional(Type.Number()) }),
  actions: { noop: { async apply() { return { content: [{ type: "text", text: "applied" }] }; } } },
  async execute(_id, { kind, times = 1 }, _onUpdate, ctx) {
    for (let each = 0; each < times; each += 1) {
      if (kind === "durable") ctx.pushPendingAction({ label: "durable", handler: "noop", payload: 1 });
      else if (kind === "refused") ctx.pushPendingAction({ label: "refused", handler: "missing", payload: 1 });
      else ctx.pushPendingAction({ label: "callback", apply: async () => ({ content: [] }) });
    }
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

const ROUNDS = MAX_STAGED_ACTIONS + 5;

async function stager() {
  const where = await project({ "stager.ts": STAGER });
  const loaded = await load(where, "process", {}, { pendingPolicy: "allow" });
  if (loaded.isolated === undefined) throw new Error("no tool host");
  const pid = loaded.isolated.pid;
  const stage = async (kind: string, round: number) => {
    const result = await loaded.session.execute({
      toolCallId: `c${round}`,
      name: "stager",
      params: { kind },
    });
    expect(text(result), `round ${round}`).toBe("staged");
  };
  return { ...loaded, pid, stage };
}

describe("a tool host whose staged actions left their stack", { timeout: 120_000 }, () => {
  it("applied durable actions no longer count toward its cap", async () => {
    const { session, isolated, pid, stage } = await stager();
    for (let round = 0; round < ROUNDS; round += 1) {
      await stage("durable", round);
      const applied = await session.execute({
        toolCallId: `r${round}`,
        name: "resolve",
        params: { action: "apply", reason: "ok" },
      });
      expect(text(applied), `round ${round}`).toContain("applied");
    }
    expect(isolated?.pid).toBe(pid);
  });

  it("durable pushes the store refused do not count toward its cap", async () => {
    const { session, isolated, pid, stage } = await stager();
    for (let round = 0; round < ROUNDS; round += 1) await stage("refused", round);
    expect(session.pending.size).toBe(0);
    expect(isolated?.pid).toBe(pid);
  });

  it("callback actions the host popped no longer count toward its cap", async () => {
    const { session, isolated, pid, stage } = await stager();
    for (let round = 0; round < ROUNDS; round += 1) {
      await stage("callback", round);
      expect(session.pending.pop()?.label).toBe("callback");
    }
    expect(isolated?.pid).toBe(pid);
  });

  it.each(["durable", "callback"])(
    "still stops one with more than the cap of %s actions pending at once",
    async (kind) => {
      const { session, isolated } = await stager();
      const stopped = new Promise<string>((resolve) =>
        isolated?.subscribe((event) => {
          if (event.type === "tool-host-stopped") resolve(event.reason);
        }),
      );
      await session.execute({ toolCallId: "flood", name: "stager", params: { kind, times: ROUNDS } });
      expect(await stopped).toContain(`more than ${MAX_STAGED_ACTIONS}`);
    },
  );
});
