// Attack: an MCP client runs two tool calls at once (clients may pipeline requests). Each
// stages a pending action; the slower call used to report every action staged while it ran,
// so its result told the model it had staged the other call's action too.
import { ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import { defineTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { connectInMemory, textOf } from "../mcp-in-memory.js";

const { Type } = new ToolHost().createAPI().typebox;

/** Stages `Change <what>` once `stageWhen` settles, then returns once `returnWhen` settles. */
function gatedTool(gates: Record<string, { stage: Promise<void>; finish: Promise<void> }>) {
  return defineTool({
    name: "stage",
    label: "Stage",
    description: "Stages a change when told to.",
    deferrable: true,
    parameters: Type.Object({ what: Type.String() }),
    async execute(_id, params, _onUpdate, ctx) {
      const gate = gates[params.what];
      if (!gate) throw new Error(`no gate for ${params.what}`);
      await gate.stage;
      ctx.pushPendingAction({ label: `Change ${params.what}`, apply: async () => textResult("applied") });
      await gate.finish;
      return textResult(`Preview: change ${params.what}`);
    },
  });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("mcp: two calls at once", () => {
  it("each result carries the reminder of its own staged action, never the other call's", async () => {
    const a = { stage: deferred(), finish: deferred() };
    const b = { stage: deferred(), finish: deferred() };
    const session = new Session({ cwd: process.cwd(), pendingPolicy: "allow" });
    session.register(
      gatedTool({
        a: { stage: a.stage.promise, finish: a.finish.promise },
        b: { stage: b.stage.promise, finish: b.finish.promise },
      }),
      "test",
    );
    const { client } = await connectInMemory(session);

    // A stages first and returns last; B stages and returns while A is still running.
    const callA = client.callTool({ name: "stage", arguments: { what: "a" } });
    const callB = client.callTool({ name: "stage", arguments: { what: "b" } });
    a.stage.resolve();
    await expect.poll(() => session.pending.size).toBe(1);
    b.stage.resolve();
    await expect.poll(() => session.pending.size).toBe(2);
    b.finish.resolve();
    const resultB = textOf(await callB);
    a.finish.resolve();
    const resultA = textOf(await callA);

    expect(resultB).toContain("Change b");
    expect(resultB).not.toContain("Change a");
    expect(resultA).toContain("Change a");
    expect(resultA).not.toContain("Change b");
  });
});
