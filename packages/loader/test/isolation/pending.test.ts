import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Session, SessionOptions } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { load, project, text } from "./isolation-helpers.js";

/** Stages a write of `content` to `file` in the working folder; `fail` makes the apply fail once. */
const WRITER = `
import { writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
export default (pi) => ({
  name: "write_file",
  label: "Write",
  description: "Stages a file write",
  deferrable: true,
  parameters: Type.Object({ file: Type.String(), content: Type.String(), fail: Type.Optional(Type.Boolean()) }),
  async execute(id, params, onUpdate, ctx) {
    let failures = params.fail ? 1 : 0;
    ctx.pushPendingAction({
      label: "Write " + params.file,
      details: { file: params.file },
      async apply(reason) {
        if (failures-- > 0) return { content: [{ type: "text", text: "disk full" }], isError: true };
        writeFileSync(join(ctx.cwd, params.file), params.content);
        return { content: [{ type: "text", text: "wrote " + params.file + " because " + reason }] };
      },
      async reject(reason) {
        writeFileSync(join(ctx.cwd, params.file + ".rejected"), reason);
        return undefined;
      },
    });
    return { content: [{ type: "text", text: "Preview: " + params.file }] };
  },
});
`;

describe.each(["none", "process"] as const)("pending actions with isolation %s", (isolation) => {
  it("applies and discards last in, first out", async () => {
    const where = await project({ "writer.ts": WRITER });
    const { session } = await load(where, isolation, {}, { pendingPolicy: "allow" });
    const staged = await session.execute({
      toolCallId: "1",
      name: "write_file",
      params: { file: "a.txt", content: "A" },
    });
    expect(text(staged)).toBe("Preview: a.txt");
    await session.execute({ toolCallId: "2", name: "write_file", params: { file: "b.txt", content: "B" } });
    expect(session.pending.list().map((record) => record.label)).toEqual(["Write b.txt", "Write a.txt"]);
    expect(session.pending.peek()?.details).toEqual({ file: "b.txt" });
    expect(session.pending.peek()?.sourceToolName).toBe("write_file");

    const applied = await session.execute({
      toolCallId: "3",
      name: "resolve",
      params: { action: "apply", reason: "looks right" },
    });
    expect(applied.isError).toBeFalsy();
    expect(readFileSync(join(where.work, "b.txt"), "utf8")).toBe("B");
    expect(existsSync(join(where.work, "a.txt"))).toBe(false);

    const discarded = await session.execute({
      toolCallId: "4",
      name: "resolve",
      params: { action: "discard", reason: "not needed" },
    });
    expect(discarded.isError).toBeFalsy();
    expect(readFileSync(join(where.work, "a.txt.rejected"), "utf8")).toBe("not needed");
    expect(existsSync(join(where.work, "a.txt"))).toBe(false);
    expect(session.pending.size).toBe(0);
  });

  it("keeps an action whose apply failed, and applies it next time", async () => {
    const where = await project({ "writer.ts": WRITER });
    const { session } = await load(where, isolation);
    await session.execute({
      toolCallId: "1",
      name: "write_file",
      params: { file: "c.txt", content: "C", fail: true },
    });
    const failed = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "try" },
    });
    expect(failed.isError).toBe(true);
    expect(session.pending.size).toBe(1);
    const applied = await session.execute({
      toolCallId: "3",
      name: "resolve",
      params: { action: "apply", reason: "again" },
    });
    expect(applied.isError).toBeFalsy();
    expect(readFileSync(join(where.work, "c.txt"), "utf8")).toBe("C");
    expect(session.pending.size).toBe(0);
  });
});

describe("pending actions of a tool host that stopped", () => {
  it("are removed as lost, reported, and never applied", async () => {
    const where = await project({ "writer.ts": WRITER });
    const { session, isolated } = await load(where, "process");
    await session.execute({ toolCallId: "1", name: "write_file", params: { file: "d.txt", content: "D" } });
    expect(session.pending.size).toBe(1);
    const discarded: string[] = [];
    session.pending.subscribe((event) => {
      if (event.type === "action-discarded") discarded.push(event.reason);
    });
    const stopped = new Promise<unknown>((resolve) => isolated?.subscribe(resolve));
    process.kill(isolated?.pid as number, "SIGKILL");
    const event = (await stopped) as {
      type: string;
      lost: Array<{ label: string }>;
      diagnostics: Array<{ code: string }>;
    };
    expect(event.type).toBe("tool-host-stopped");
    expect(event.lost.map((record) => record.label)).toEqual(["Write d.txt"]);
    expect(event.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_ACTIONS_LOST"]);
    expect(session.pending.size).toBe(0);
    expect(discarded).toEqual([
      expect.stringMatching(/^lost: the tool host stopped\. It was killed by SIGKILL\./),
    ]);
    const resolved = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "x" },
    });
    expect(text(resolved)).toMatch(/No pending action/);
    expect(existsSync(join(where.work, "d.txt"))).toBe(false);
    // The next call starts a fresh tool host.
    const again = await session.execute({
      toolCallId: "3",
      name: "write_file",
      params: { file: "e.txt", content: "E" },
    });
    expect(text(again)).toBe("Preview: e.txt");
    expect(isolated?.pid).toBeGreaterThan(0);
  });
});

/** Misuses `pushPendingAction` as `params.how` says, and answers with what it threw. */
const MISUSER = `
import { Type } from "@sinclair/typebox";
let saved;
export default (pi) => ({
  name: "misuse",
  label: "Misuse",
  description: "Stages actions wrongly",
  parameters: Type.Object({ how: Type.String() }),
  async execute(id, params, onUpdate, ctx) {
    try {
      if (params.how === "keep") saved = ctx;
      if (params.how === "no-apply") ctx.pushPendingAction({ label: "No apply" });
      if (params.how === "empty-label") ctx.pushPendingAction({ label: " ", apply: async () => undefined });
      if (params.how === "both-forms") ctx.pushPendingAction({ label: "Both", handler: "h", payload: 1, apply: async () => undefined });
      if (params.how === "no-payload") ctx.pushPendingAction({ label: "Data", handler: "h" });
      if (params.how === "map-payload") ctx.pushPendingAction({ label: "Data", handler: "h", payload: { files: new Map([["a", "b"]]) } });
      if (params.how === "late") saved.pushPendingAction({ label: "Late", apply: async () => undefined });
    } catch (error) {
      return { content: [{ type: "text", text: error.code + ": " + error.message }] };
    }
    return { content: [{ type: "text", text: "nothing thrown" }] };
  },
});
`;

describe("a misused pushPendingAction", () => {
  it("throws the same code and message with and without isolation", async () => {
    const answers: Record<string, string[]> = {};
    for (const isolation of ["none", "process"] as const) {
      const where = await project({ "misuse.ts": MISUSER });
      const { session } = await load(where, isolation);
      answers[isolation] = [];
      for (const how of [
        "no-apply",
        "empty-label",
        "both-forms",
        "no-payload",
        "map-payload",
        "keep",
        "late",
      ]) {
        const result = await session.execute({ toolCallId: `call-${how}`, name: "misuse", params: { how } });
        answers[isolation].push(text(result));
      }
    }
    expect(answers.process).toEqual(answers.none);
    expect(answers.none?.filter((answer) => answer.startsWith("E_INVALID_PENDING_ACTION: "))).toHaveLength(5);
    expect(answers.none?.[4]).toContain("payload.files is a Map, which JSON writes as {}");
    expect(answers.none?.[6]).toMatch(
      /^E_CALL_ENDED: Tool "misuse" cannot stage the pending action "Late": its call call-keep has already ended/,
    );
  });
});

/**
 * Runs `steps` on a session with `file` loaded in-process and again isolated, and returns what
 * each gave: the tool host must answer as a Session does.
 */
async function inBothModes<T>(
  file: Record<string, string>,
  sessionOptions: SessionOptions,
  steps: (session: Session) => Promise<T>,
): Promise<Record<"none" | "process", T>> {
  const answers: Partial<Record<"none" | "process", T>> = {};
  for (const isolation of ["none", "process"] as const) {
    const { session } = await load(await project(file), isolation, {}, sessionOptions);
    answers[isolation] = await steps(session);
  }
  return answers as Record<"none" | "process", T>;
}

/** Calls `resolve` with `action` and `reason`. */
function resolve(session: Session, toolCallId: string, action: "apply" | "discard", reason: string) {
  return session.execute({ toolCallId, name: "resolve", params: { action, reason } });
}

/** Stages an action, then replaces its apply and reject on the object it pushed. */
const SWAPPER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "swap",
  label: "Swap",
  description: "Stages an action, then changes it",
  parameters: Type.Object({}),
  async execute(id, params, onUpdate, ctx) {
    const action = {
      label: "Original",
      async apply() { return { content: [{ type: "text", text: "original apply" }] }; },
    };
    ctx.pushPendingAction(action);
    action.apply = async () => ({ content: [{ type: "text", text: "replaced apply" }] });
    action.reject = async () => ({ content: [{ type: "text", text: "added reject" }] });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe("an action changed after it was pushed", () => {
  it("runs the apply and reject read at push, with and without isolation", async () => {
    const answers = await inBothModes({ "swap.ts": SWAPPER }, { pendingPolicy: "allow" }, async (session) => {
      await session.execute({ toolCallId: "1", name: "swap", params: {} });
      await session.execute({ toolCallId: "2", name: "swap", params: {} });
      return [
        text(await resolve(session, "3", "apply", "ok")),
        text(await resolve(session, "4", "discard", "no")),
      ];
    });
    expect(answers.none?.[0]).toContain("original apply");
    expect(answers.none?.[1]).toMatch(/discarded/i);
    expect(answers.none?.[1]).not.toContain("added reject");
    expect(answers.process).toEqual(answers.none);
  });
});

/** Stages an action whose apply answers with a result whose `isError` getter throws. */
const THROWING_IS_ERROR = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "odd",
  label: "Odd",
  description: "Stages an action with an odd result",
  parameters: Type.Object({}),
  async execute(id, params, onUpdate, ctx) {
    ctx.pushPendingAction({
      label: "Odd",
      async apply() {
        return {
          content: [{ type: "text", text: "applied" }],
          get isError() {
            throw new Error("no answer");
          },
        };
      },
    });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe("an apply whose result's isError getter throws", () => {
  it("is applied and gone, with and without isolation", async () => {
    const answers = await inBothModes({ "odd.ts": THROWING_IS_ERROR }, {}, async (session) => {
      await session.execute({ toolCallId: "1", name: "odd", params: {} });
      const applied = await resolve(session, "2", "apply", "ok");
      return [text(applied), applied.isError === true, session.pending.size];
    });
    expect(answers.none?.[2]).toBe(0);
    expect(answers.process).toEqual(answers.none);
  });
});

/** Stages a durable action whose handler's apply answers with a result whose `isError` getter throws. */
const THROWING_IS_ERROR_HANDLER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "odd_handler",
  label: "Odd handler",
  description: "Stages a durable action whose handler gives an odd result",
  parameters: Type.Object({}),
  actions: {
    odd: {
      async apply() {
        return {
          content: [{ type: "text", text: "applied by the handler" }],
          get isError() {
            throw new Error("no answer");
          },
        };
      },
    },
  },
  async execute(id, params, onUpdate, ctx) {
    ctx.pushPendingAction({ label: "Odd", handler: "odd", payload: { n: 1 } });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe("a durable action's handler whose result's isError getter throws", () => {
  it("is applied and gone, with and without isolation", async () => {
    const answers = await inBothModes(
      { "odd.ts": THROWING_IS_ERROR_HANDLER },
      { pendingPolicy: "allow" },
      async (session) => {
        await session.execute({ toolCallId: "1", name: "odd_handler", params: {} });
        expect(session.pending.size).toBe(1);
        const applied = await resolve(session, "2", "apply", "ok");
        return [text(applied), applied.isError === true, session.pending.size];
      },
    );
    expect(answers.none).toEqual([expect.stringContaining("applied by the handler"), false, 0]);
    expect(answers.process).toEqual(answers.none);
  });
});

describe("a durable action staged by a tool in a tool host", () => {
  it("has a record marked isolated (a durable store keeps it for whoever applies it later); in-process, none", async () => {
    const marks = await inBothModes({ "odd.ts": THROWING_IS_ERROR_HANDLER }, {}, async (session) => {
      await session.execute({ toolCallId: "1", name: "odd_handler", params: {} });
      return [session.pending.peek()?.isolated];
    });
    expect(marks).toEqual({ none: [undefined], process: [true] });
  });
});
