import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import { textOf } from "../../../test/fake-context.js";
import { echoTool, stagingTool } from "../../../test/tools.js";
import { Session } from "../session.js";
import type { SessionToolContext } from "../tool-context.js";

function toolReturning(name: string, execute: CustomTool["execute"]): CustomTool {
  return { name, label: name, description: name, parameters: Type.Object({}), execute };
}

function run(session: Session, name: string, params: unknown = {}) {
  return session.execute({ toolCallId: `call-${name}`, name, params });
}

describe("Session pending policy", () => {
  it("blocks other tools while an action is pending, naming it and saying to call resolve first", async () => {
    const session = new Session();
    const echo = vi.fn(async () => textResult("ran"));
    session.register(stagingTool("stage"));
    session.register({ ...echoTool(), execute: echo });
    await run(session, "stage", { label: "Rewrite 4 imports" });
    const result = await run(session, "echo", { text: "x" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Cannot run "echo" yet: the pending action "Rewrite 4 imports" is waiting. Call `resolve` first to apply or discard it, then call "echo" again if it is still needed.',
    );
    expect(echo).not.toHaveBeenCalled();
    await run(session, "resolve", { action: "apply", reason: "ok" });
    expect(textOf(await run(session, "echo", { text: "x" }))).toBe("ran");
  });

  it("blocks the producing tool itself and counts the actions below the top", async () => {
    const session = new Session();
    session.register(stagingTool("stage"));
    session.pending.push({ label: "older", apply: async () => textResult("ok") });
    session.pending.push({ label: "newer", apply: async () => textResult("ok") });
    const result = await run(session, "stage", { label: "third" });
    expect(textOf(result)).toContain(
      'the pending action "newer" is waiting (and 1 more pending action below it)',
    );
    expect(session.pending.size).toBe(2);
  });

  it('runs other tools under pendingPolicy "allow"', async () => {
    const session = new Session({ pendingPolicy: "allow" });
    session.register(stagingTool("stage"));
    session.register(echoTool());
    await run(session, "stage", { label: "A" });
    expect(await run(session, "echo", { text: "fine" })).toEqual(textResult("fine"));
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });
  });

  it("defaults sourceToolName to the calling tool and keeps an explicit one", async () => {
    const session = new Session({ pendingPolicy: "allow" });
    session.register(stagingTool("stager"));
    session.register(
      toolReturning("named", async (_id, _params, _onUpdate, ctx) => {
        (ctx as SessionToolContext).pushPendingAction({
          label: "N",
          sourceToolName: "custom_source",
          apply: async () => textResult("ok"),
        });
        return textResult("staged");
      }),
    );
    await run(session, "stager", { label: "S" });
    await run(session, "named");
    expect(session.pending.list().map((record) => record.sourceToolName)).toEqual([
      "custom_source",
      "stager",
    ]);
  });

  it("keeps the methods of an action that is a class instance", async () => {
    class Staged {
      label = "Class action";
      async apply() {
        return textResult(`applied ${this.label}`);
      }
    }
    const session = new Session();
    session.register(
      toolReturning("classy", async (_id, _params, _onUpdate, ctx) => {
        (ctx as SessionToolContext).pushPendingAction(new Staged());
        return textResult("staged");
      }),
    );
    await run(session, "classy");
    const applied = await run(session, "resolve", { action: "apply", reason: "ok" });
    expect(textOf(applied)).toBe("applied Class action");
  });

  it("reports a tool that pushes an invalid action as that tool's failure", async () => {
    const session = new Session();
    session.register(
      toolReturning("sloppy", async (_id, _params, _onUpdate, ctx) => {
        (ctx as SessionToolContext).pushPendingAction({ label: "" } as never);
        return textResult("staged");
      }),
    );
    const result = await run(session, "sloppy");
    expect(textOf(result)).toContain(
      'Tool "sloppy" failed: Invalid pending action: label must be a non-empty string, got an empty string.',
    );
    expect(session.pending.hasPending).toBe(false);
  });

  it("validates resolve's arguments like any tool's", async () => {
    const session = new Session();
    session.pending.push({ label: "A", apply: async () => textResult("ok") });
    const result = await run(session, "resolve", { action: "maybe" });
    expect(textOf(result)).toContain('Invalid arguments for tool "resolve":');
    expect(textOf(result)).toContain("- /reason: Expected required property");
    expect(session.pending.size).toBe(1);
  });
});
