// Found by a second read of the tool host's cap: a host that calls a proxy tool directly, with a
// context of its own whose `pushPendingAction` pushes into its own store (no Session call
// around it), left the tool host unable to tell which store held what it staged. A callback
// action the host then took off with `pop()` stayed counted for good (the tool host was stopped
// after 1,000 of them with none pending), and durable actions were not counted at all (a
// hostile module staged as many as it liked). The record now names its store.

import { PendingActionStore } from "@tooldock/runtime";
import type { CustomToolContext } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { load, project, text } from "../isolation/isolation-helpers.js";

const STAGER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stager",
  label: "Stager",
  description: "Stages one action a call: durable or a callback",
  parameters: Type.Object({ kind: Type.String() }),
  actions: { noop: { async apply() { return { content: [{ type: "text", text: "applied" }] }; } } },
  async execute(_id, { kind }, _onUpdate, ctx) {
    if (kind === "durable") ctx.pushPendingAction({ label: "durable", handler: "noop", payload: 1 });
    else ctx.pushPendingAction({ label: "callback", apply: async () => ({ content: [] }) });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

async function stagerCalledDirectly() {
  const where = await project({ "stager.ts": STAGER });
  const { tools, isolated } = await load(where, "process", {}, { pendingPolicy: "allow" });
  if (isolated === undefined) throw new Error("no tool host");
  const stops: string[] = [];
  isolated.subscribe((event) => {
    if (event.type === "tool-host-stopped") stops.push(event.reason);
  });
  const tool = tools.find((loaded) => loaded.tool.name === "stager")?.tool;
  if (tool === undefined) throw new Error("no stager");
  const store = new PendingActionStore();
  const ctx: CustomToolContext = {
    sessionId: "host-own",
    cwd: where.root,
    hasPendingActions: () => store.size > 0,
    abort: () => {},
    pushPendingAction: (action) => store.push(action),
  };
  const stage = async (kind: string, round: number) => {
    const result = await tool.execute(`c${round}`, { kind }, undefined, ctx);
    return `${text(result)}${stops.length > 0 ? `: ${stops.join(" ")}` : ""}`;
  };
  return { isolated, pid: isolated.pid, store, stage, stops };
}

describe("actions an isolated tool stages through a host's own context", { timeout: 120_000 }, () => {
  it("callback actions the host popped no longer count toward the cap", async () => {
    const { isolated, pid, store, stage, stops } = await stagerCalledDirectly();
    for (let round = 0; round < MAX_STAGED_ACTIONS + 5; round += 1) {
      expect(await stage("callback", round), `round ${round}`).toBe("staged");
      expect(store.pop()?.label).toBe("callback");
    }
    expect(stops).toEqual([]);
    expect(isolated.pid).toBe(pid);
  });

  it("durable actions count toward the cap", async () => {
    const { store, stage, stops } = await stagerCalledDirectly();
    let round = 0;
    while (stops.length === 0 && round < MAX_STAGED_ACTIONS + 5) {
      await stage("durable", round);
      round += 1;
    }
    expect(stops).toEqual([
      expect.stringContaining(`more than ${MAX_STAGED_ACTIONS} durable actions pending`),
    ]);
    expect(store.size).toBe(MAX_STAGED_ACTIONS);
  });
});
