import { Type } from "@sinclair/typebox";
import { type CustomToolPendingAction, TooldockError, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import type { SessionToolContext } from "../../src/session/tool-context.js";
import { textOf } from "../fake-context.js";
import { echoTool } from "../tools.js";

// The attack: a pending action whose `label` getter returned a string twice (while it was
// checked) and then a Symbol (when the record was built). The record held a Symbol, and the
// next `session.execute` threw a TypeError building its message instead of answering.

function labelTurningSymbol(label: string): { action: CustomToolPendingAction; reads: () => number } {
  let reads = 0;
  const action = {
    get label(): string {
      reads += 1;
      return (reads <= 2 ? label : Symbol("gotcha")) as string;
    },
    apply: async () => textResult(`applied ${label}`),
  };
  return { action, reads: () => reads };
}

describe("regression: a pending label getter that turns into a Symbol", () => {
  it("is read once at push; the record keeps the string and execute keeps answering", async () => {
    const session = new Session();
    session.register(echoTool());
    const { action, reads } = labelTurningSymbol("Rename a.ts");
    const record = session.pending.push(action); // as pi.pushPendingAction does
    expect(reads()).toBe(1);
    expect(record.label).toBe("Rename a.ts");
    expect(Object.isFrozen(record)).toBe(true);

    const blocked = await session.execute({ toolCallId: "t1", name: "echo", params: { text: "hi" } });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toContain('the pending action "Rename a.ts" is waiting');
    expect(session.pending.peek()?.label).toBe("Rename a.ts");

    const applied = await session.execute({
      toolCallId: "t2",
      name: "resolve",
      params: { action: "apply", reason: "fine" },
    });
    expect(textOf(applied)).toBe("applied Rename a.ts");
    expect(applied.details).toMatchObject({ label: "Rename a.ts" });
    expect(reads()).toBe(1);
  });

  it("is read once through ctx.pushPendingAction too", async () => {
    const session = new Session();
    const { action, reads } = labelTurningSymbol("Stage b.ts");
    session.register({
      name: "stage",
      label: "Stage",
      description: "stages an action with a hostile label",
      parameters: Type.Object({}),
      async execute(_id, _params, _onUpdate, ctx) {
        const record = (ctx as SessionToolContext).pushPendingAction(action);
        return textResult(`staged ${record.label}`);
      },
    });
    const staged = await session.execute({ toolCallId: "t1", name: "stage", params: {} });
    expect(textOf(staged)).toBe("staged Stage b.ts");
    expect(reads()).toBe(1);
    const again = await session.execute({ toolCallId: "t2", name: "stage", params: {} });
    expect(textOf(again)).toContain('the pending action "Stage b.ts" is waiting');
  });

  it("refuses at push a label that is not a string when read", () => {
    const session = new Session();
    let thrown: unknown;
    try {
      session.pending.push({
        get label(): string {
          return Symbol("from the start") as unknown as string;
        },
        apply: async () => textResult("never"),
      });
    } catch (error) {
      thrown = error;
    }
    expect(TooldockError.isInstance(thrown) && thrown.code).toBe("E_INVALID_PENDING_ACTION");
    expect((thrown as Error).message).toContain("label must be a non-empty string, got symbol");
    expect(session.pending.size).toBe(0);
  });
});
