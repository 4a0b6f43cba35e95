import { Type } from "@sinclair/typebox";
import { type CustomTool, type PendingActionHandlerContext, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { textOf } from "../../test/fake-context.js";
import { Session } from "../session/session.js";

interface Plan {
  moves: Array<{ from: string; to: string }>;
}

/** A tool that stages what `params.action` says, with handlers that record their calls. */
function renameTool(calls: unknown[], extra: Partial<CustomTool> = {}): CustomTool {
  const handler = {
    prefix: "renamed",
    async apply(this: { prefix: string }, plan: Plan, reason: string, ctx: PendingActionHandlerContext) {
      calls.push({ kind: "apply", plan, reason, ctx, self: this.prefix });
      return textResult(`${this.prefix} ${plan.moves.length} file(s)`);
    },
    async reject(plan: Plan, reason: string) {
      calls.push({ kind: "reject", plan, reason });
      return undefined;
    },
  };
  return {
    name: "rename_preview",
    label: "Rename preview",
    description: "Stages a rename.",
    parameters: Type.Object({ action: Type.Unknown() }),
    actions: { rename: handler },
    async execute(_id, params, _onUpdate, ctx) {
      ctx.pushPendingAction((params as { action: never }).action);
      return textResult("staged");
    },
    ...extra,
  };
}

async function stage(session: Session, action: unknown) {
  return session.execute({ toolCallId: "stage", name: "rename_preview", params: { action } });
}

async function resolve(session: Session, action: "apply" | "discard", reason = "the user agreed") {
  return session.execute({ toolCallId: "resolve", name: "resolve", params: { action, reason } });
}

const plan = (): Plan => ({ moves: [{ from: "a.ts", to: "b.ts" }] });

describe("durable pending actions (a handler and a payload)", () => {
  it("are applied by the handler the staging tool declares, with the payload, the reason and the context", async () => {
    const calls: unknown[] = [];
    const session = new Session({ sessionId: "chat-1", cwd: "/work" });
    session.register(renameTool(calls));
    const payload = plan();
    await stage(session, { label: "Rename 1 file", handler: "rename", payload });
    payload.moves.push({ from: "x", to: "y" }); // staged as a copy
    const [record] = session.pending.list();
    expect(record).toMatchObject({ label: "Rename 1 file", handler: "rename", payload: plan() });
    expect(Object.isFrozen(record?.payload)).toBe(true);

    const result = await resolve(session, "apply");
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("renamed 1 file(s)");
    expect(calls).toEqual([
      {
        kind: "apply",
        plan: plan(),
        reason: "the user agreed",
        ctx: { sessionId: "chat-1", cwd: "/work", actionId: record?.id, label: "Rename 1 file" },
        self: "renamed",
      },
    ]);
    expect(session.pending.hasPending).toBe(false);
  });

  it("run the handler's reject with the payload when discarded", async () => {
    const calls: unknown[] = [];
    const session = new Session();
    session.register(renameTool(calls));
    await stage(session, { label: "Rename", handler: "rename", payload: plan() });
    const result = await resolve(session, "discard", "not now");
    expect(textOf(result)).toBe("Discarded: Rename. Reason: not now");
    expect(calls).toEqual([{ kind: "reject", plan: plan(), reason: "not now" }]);
  });

  it("are refused when staged with a handler the tool does not declare", async () => {
    const session = new Session();
    session.register(renameTool([]));
    const result = await stage(session, { label: "Rename", handler: "renmae", payload: plan() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('the tool "rename_preview" declares no action handler "renmae"');
    expect(session.pending.hasPending).toBe(false);
  });

  it.each([
    ["no payload", { label: "Rename", handler: "rename" }, "a durable action needs a JSON payload"],
    [
      "a payload that is not JSON",
      { label: "Rename", handler: "rename", payload: { n: 1n } },
      "payload.n is a BigInt, which JSON cannot write",
    ],
    [
      "a handler and callbacks",
      { label: "Rename", handler: "rename", payload: {}, apply: async () => textResult("x") },
      "give either a handler",
    ],
    [
      "an empty handler name",
      { label: "Rename", handler: " ", payload: {} },
      "handler must be the non-empty name",
    ],
  ])("are refused with %s", async (_case, action, message) => {
    const session = new Session();
    session.register(renameTool([]));
    const result = await stage(session, action);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(message);
    expect(session.pending.hasPending).toBe(false);
  });

  // A payload JSON would change without a word (a Map written as {}) was staged, and its apply
  // then ran on data that was not what the tool staged: renamed nothing, said it was applied.
  it.each([
    ["a Map", { files: new Map([["a.txt", "b.txt"]]) }, "payload.files is a Map, which JSON writes as {}"],
    ["a Set", { files: new Set(["a.txt"]) }, "payload.files is a Set, which JSON writes as {}"],
    ["NaN", { ratio: Number.NaN }, "payload.ratio is NaN, which JSON writes as null"],
    [
      "an infinite number",
      { limit: [1, Infinity] },
      "payload.limit[1] is Infinity, which JSON writes as null",
    ],
    ["a function", { renamer: () => "b.txt" }, "payload.renamer is a function, which JSON leaves out"],
    [
      "undefined in an array",
      { files: ["a.txt", undefined] },
      "payload.files[1] is undefined, which JSON writes as null",
    ],
    ["binary data", { bytes: new Uint8Array([1, 2]) }, "payload.bytes is binary data"],
    ["an Error", { cause: new Error("x") }, "payload.cause is an Error, which JSON writes as {}"],
    [
      "a deep Map under an odd key",
      { "two words": [{ m: new Map() }] },
      'payload["two words"][0].m is a Map',
    ],
  ])(
    "payload-map-arrives-empty: refuse a payload with %s, naming the place",
    async (_case, payload, message) => {
      const session = new Session();
      session.register(renameTool([]));
      const result = await stage(session, { label: "Rename", handler: "rename", payload });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`Invalid pending action: ${message}`);
      expect(session.pending.hasPending).toBe(false);
    },
  );

  it("payload-map-arrives-empty: take what JSON carries as the tool meant it (toJSON, an absent property)", async () => {
    const calls: Array<{ kind: string; plan: unknown }> = [];
    const session = new Session();
    session.register(renameTool(calls));
    const when = new Date(Date.UTC(2026, 0, 2));
    const staged = await stage(session, {
      label: "Rename",
      handler: "rename",
      payload: { when, note: undefined, files: [["a.txt", "b.txt"]] },
    });
    expect(staged.isError).not.toBe(true);
    await resolve(session, "apply");
    expect(calls[0]?.plan).toEqual({ when: "2026-01-02T00:00:00.000Z", files: [["a.txt", "b.txt"]] });
  });

  it("payload-map-arrives-empty: refuse a callback action's details that JSON would change", async () => {
    const session = new Session();
    const pushed = (() => {
      try {
        session.pending.push({
          label: "Write",
          apply: async () => textResult("ok"),
          details: { sizes: new Map() },
        });
        return undefined;
      } catch (error) {
        return error as Error;
      }
    })();
    expect(pushed?.message).toContain("details.sizes is a Map, which JSON writes as {}");
    expect(session.pending.hasPending).toBe(false);
  });

  it("keep the record when no loaded tool declares the handler any more, and can still be discarded", async () => {
    const calls: unknown[] = [];
    const session = new Session();
    session.register(renameTool(calls));
    await stage(session, { label: "Rename", handler: "rename", payload: plan() });
    session.unregister("rename_preview");
    const refused = await resolve(session, "apply");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      'no loaded tool named "rename_preview" declares the action handler "rename"',
    );
    expect(textOf(refused)).toContain("The action is still pending");
    expect(session.pending.size).toBe(1);
    const discarded = await resolve(session, "discard", "tool is gone");
    expect(discarded.isError).toBeUndefined();
    expect(session.pending.hasPending).toBe(false);
    expect(calls).toEqual([]);
  });

  it("leave a tool whose actions field is something else (not handlers) as it was", () => {
    const session = new Session();
    session.register(renameTool([], { actions: ["list", "create"] as never }));
    expect(session.get("rename_preview")?.actions).toBeUndefined();
  });

  it("are refused by a tool whose actions are not handlers", () => {
    const session = new Session();
    expect(() =>
      session.register(renameTool([], { actions: { rename: { apply: "nope" } } as never })),
    ).toThrow(/"actions.rename.apply" is a string, not a function/);
  });
});
