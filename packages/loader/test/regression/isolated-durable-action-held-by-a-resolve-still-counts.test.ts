// Found by a second read of the tool host's durable cap: it counts its durable actions still
// pending by asking their store, and one a resolve held off the stack at that moment (its apply
// running in the tool host) read as gone. A failed apply puts it back, but it no longer
// counted: one durable action more than the cap pending for each such resolve, the tool host
// never stopped for it. The journal is SQLite's, in memory.
import { join } from "node:path";
import { openSqliteJournal, PendingActionStore } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { load, project, sqliteInMemory, text } from "../isolation/isolation-helpers.js";

const STAGER = `
import { Type } from "@sinclair/typebox";
export default (pi) => {
  const waiting = [];
  pi.events.on("fail", () => { for (const fail of waiting.splice(0)) fail(new Error("disk full")); });
  return {
    name: "stager",
    label: "Stager",
    description: "Stages durable actions; a 'gate' one's apply fails when the host says fail",
    parameters: Type.Object({ handler: Type.String(), times: Type.Number() }),
    actions: {
      noop: { async apply() { return { content: [] }; } },
      gate: {
        apply: () =>
          new Promise((_resolve, reject) => {
            waiting.push(reject);
            pi.events.emit("applying");
          }),
      },
    },
    async execute(_id, { handler, times }, _onUpdate, ctx) {
      for (let each = 0; each < times; each += 1) ctx.pushPendingAction({ label: handler, handler, payload: each });
      return { content: [{ type: "text", text: "staged" }] };
    },
  };
};
`;

describe("a durable action a resolve holds while the tool host counts what is pending", () => {
  it("still counts once its apply failed and put it back", { timeout: 120_000 }, async () => {
    const where = await project({ "stager.ts": STAGER });
    const journal = openSqliteJournal(join(where.root, "journal.db"), { database: sqliteInMemory() });
    const pending = await PendingActionStore.open(journal, "chat");
    const host = new ToolHost({ cwd: where.work });
    const { session, isolated } = await load(
      where,
      "process",
      { host },
      { sessionId: "chat", pending, pendingPolicy: "allow" },
    );
    if (isolated === undefined) throw new Error("no tool host");
    const stops: string[] = [];
    isolated.subscribe((event) => {
      if (event.type === "tool-host-stopped") stops.push(event.reason);
    });
    const stage = (handler: string, times: number) =>
      session.execute({
        toolCallId: `${handler}-${pending.size}`,
        name: "stager",
        params: { handler, times },
      });

    expect(text(await stage("noop", MAX_STAGED_ACTIONS - 1))).toBe("staged");
    expect(text(await stage("gate", 1))).toBe("staged");
    const applying = new Promise<void>((resolve) => host.events.on("applying", () => resolve()));
    const resolved = session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    await applying; // the gate action is off the stack, held by the resolve
    // Two leave (discarded elsewhere): the tool host may stage again, and counts what is pending.
    for (const { id } of pending.list().slice(0, 2)) pending.remove(id, "discarded elsewhere");
    expect(text(await stage("noop", 1))).toBe("staged");
    host.events.emit("fail");
    expect((await resolved).isError).toBe(true);
    expect(pending.list().map(({ label }) => label)).toContain("gate"); // back on the stack
    // The gate action counts: the cap is reached with this one, and the next is one too many.
    expect(text(await stage("noop", 1))).toBe("staged");
    expect(pending.size).toBe(MAX_STAGED_ACTIONS);
    expect(stops).toEqual([]);
    await stage("noop", 1);
    expect(stops).toEqual([
      expect.stringContaining(`more than ${MAX_STAGED_ACTIONS} durable actions pending`),
    ]);
    expect(pending.size).toBe(MAX_STAGED_ACTIONS);
    // And a later resolve still takes it, once the two staged around its resolve are gone.
    const [last, gate, during] = pending.list(); // top first
    expect([last?.label, gate?.label, during?.label]).toEqual(["noop", "gate", "noop"]);
    for (const record of [last, during]) pending.remove(record?.id as string, "discarded elsewhere");
    const discarded = await session.execute({
      toolCallId: "d",
      name: "resolve",
      params: { action: "discard", reason: "no" },
    });
    expect(text(discarded)).toBe("Discarded: gate. Reason: no");
    expect(pending.list().map(({ label }) => label)).not.toContain("gate");
  });
});
