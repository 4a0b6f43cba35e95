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
  description: "Stages as many actions as it is told: durable or callbacks",
  parameters: Type.Object({ kind: Type.String(), times: Type.Number() }),
  actions: { noop: { async apply() { return { content: [{ type: "text", text: "applied" }] }; } } },
  async execute(_id, { kind, times }, _onUpdate, ctx) {
    for (let each = 0; each < times; each += 1) {
      if (kind === "durable") ctx.pushPendingAction({ label: "durable", handler: "noop", payload: 1 });
      else ctx.pushPendingAction({ label: "callback", apply: async () => ({ content: [] }) });
    }
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
  const stage = async (kind: string, times: number, round: number) => {
    const result = await tool.execute(`c${round}`, { kind, times }, undefined, ctx);
    return `${text(result)}${stops.length > 0 ? `: ${stops.join(" ")}` : ""}`;
  };
  return { isolated, pid: isolated.pid, store, stage, stops };
}

describe("actions an isolated tool stages through a host's own context", { timeout: 120_000 }, () => {
  it("callback actions the host popped no longer count toward the cap", async () => {
    const { isolated, pid, store, stage, stops } = await stagerCalledDirectly();
    // Half the cap at a time, each half popped: never more than that pending at once.
    const half = MAX_STAGED_ACTIONS / 2;
    for (let round = 0; round < 3; round += 1) {
      expect(await stage("callback", half, round), `round ${round}`).toBe("staged");
      for (let each = 0; each < half; each += 1) expect(store.pop()?.label).toBe("callback");
    }
    expect(stops).toEqual([]);
    expect(isolated.pid).toBe(pid);
  });

  it("durable actions count toward the cap", async () => {
    const { store, stage, stops } = await stagerCalledDirectly();
    await stage("durable", MAX_STAGED_ACTIONS, 0);
    expect(stops).toEqual([]);
    await stage("durable", 1, 1);
    expect(stops).toEqual([
      expect.stringContaining(`more than ${MAX_STAGED_ACTIONS} durable actions pending`),
    ]);
    expect(store.size).toBe(MAX_STAGED_ACTIONS);
  });
});
