import { Session, type SessionEvent } from "@tooldock/runtime";
import { type CustomTool, type CustomToolAPI, TooldockError, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { PENDING_STORE_UNAVAILABLE_MESSAGE, ToolHost } from "./tool-host.js";

/** A small seeded generator (mulberry32), so a failing round can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A loaded-module style tool: it stages through `pi.pushPendingAction` after awaiting
 * `delays[0]` ms, from a timer `delays[1]` ms later, then returns. Its label names the
 * conversation and the call, so each action says where it belongs.
 */
function stagingTool(pi: CustomToolAPI): CustomTool {
  return {
    name: "stage",
    label: "Stage",
    description: "Stages a change after some delays",
    parameters: pi.typebox.Type.Object({
      label: pi.typebox.Type.String(),
      delays: pi.typebox.Type.Array(pi.typebox.Type.Number()),
      via: pi.typebox.Type.Union([pi.typebox.Type.Literal("pi"), pi.typebox.Type.Literal("ctx")]),
    }),
    async execute(_id, params, _onUpdate, ctx) {
      const { label, delays, via } = params as { label: string; delays: number[]; via: "pi" | "ctx" };
      await pause(delays[0] ?? 0);
      await new Promise<void>((resolve, reject) =>
        setTimeout(() => {
          try {
            const action = { label, apply: async () => textResult(`applied ${label}`) };
            if (via === "pi") pi.pushPendingAction(action);
            else ctx.pushPendingAction(action);
            resolve();
          } catch (error) {
            reject(error);
          }
        }, delays[1] ?? 0),
      );
      return textResult(`staged ${label}`);
    },
  };
}

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
});

function twoSessions(host: ToolHost): [Session, Session] {
  const tool = stagingTool(host.createAPI());
  const a = new Session({ sessionId: "A", pendingPolicy: "allow" });
  const b = new Session({ sessionId: "B", pendingPolicy: "allow" });
  a.register(tool, "tools/stage.ts");
  b.register(tool, "tools/stage.ts");
  sessions.push(a, b);
  return [a, b];
}

describe("one ToolHost, two Sessions: an action lands in the session whose call staged it", () => {
  it("holds over hundreds of interleaved concurrent calls with random delays (seeded)", async () => {
    const seed = 20261203;
    const random = seeded(seed);
    const host = new ToolHost();
    const [a, b] = twoSessions(host);
    // The loader makes the session it loaded into the active one; it must not attract pushes.
    host.setActiveSession(b);
    const expected = { A: [] as string[], B: [] as string[] };
    const reminders = { A: [] as string[], B: [] as string[] };
    for (const session of [a, b]) {
      session.subscribe((event: SessionEvent) => {
        if (event.type === "reminder") reminders[session.id as "A" | "B"].push(event.record.label);
      });
    }
    const rounds = 300;
    const calls: Promise<unknown>[] = [];
    for (let round = 0; round < rounds; round++) {
      const session = random() < 0.5 ? a : b;
      const label = `${session.id}:${round}`;
      const delays = [Math.floor(random() * 4), Math.floor(random() * 4)];
      const via = random() < 0.75 ? "pi" : "ctx";
      expected[session.id as "A" | "B"].push(label);
      calls.push(
        session.execute({ toolCallId: `call-${round}`, name: "stage", params: { label, delays, via } }),
      );
      if (random() < 0.3) await pause(Math.floor(random() * 2));
    }
    const results = await Promise.all(calls);
    expect(results.every((result) => (result as { isError?: boolean }).isError !== true)).toBe(true);
    const labels = (session: Session) =>
      session.pending
        .list()
        .map((record) => record.label)
        .sort();
    expect(labels(a), `seed ${seed}`).toEqual([...expected.A].sort());
    expect(labels(b), `seed ${seed}`).toEqual([...expected.B].sort());
    expect(a.pending.size + b.pending.size).toBe(rounds);
    expect([...reminders.A].sort()).toEqual([...expected.A].sort());
    expect([...reminders.B].sort()).toEqual([...expected.B].sort());
  });

  it("refuses a pi push after its call ended with E_CALL_ENDED, even with an active session", async () => {
    const host = new ToolHost();
    const pi = host.createAPI();
    const session = new Session({ sessionId: "A" });
    sessions.push(session);
    host.setActiveSession(session);
    let late: Promise<unknown> | undefined;
    session.register({
      name: "late",
      label: "Late",
      description: "Stages after it returned",
      parameters: pi.typebox.Type.Object({}),
      async execute() {
        late = new Promise((resolve) =>
          setTimeout(() => {
            try {
              pi.pushPendingAction({ label: "too late", apply: async () => textResult("x") });
              resolve("pushed");
            } catch (error) {
              resolve(error);
            }
          }, 5),
        );
        return textResult("done");
      },
    });
    const faults: SessionEvent[] = [];
    session.subscribe((event) => {
      if (event.type === "tool-call-fault") faults.push(event);
    });
    await session.execute({ toolCallId: "t1", name: "late", params: {} });
    const error = await late;
    expect(TooldockError.isInstance(error) && error.code).toBe("E_CALL_ENDED");
    expect((error as Error).message).toMatch(/"too late": its call t1 has already ended/);
    expect(session.pending.size).toBe(0);
    expect(faults).toMatchObject([{ fault: "late-push-refused", toolCallId: "t1" }]);
  });

  it("falls back to the active session outside any call, and throws the exact message with neither", async () => {
    const host = new ToolHost();
    const pi = host.createAPI();
    const session = new Session();
    sessions.push(session);
    expect(() => pi.pushPendingAction({ label: "nowhere", apply: async () => textResult("x") })).toThrow(
      new Error(PENDING_STORE_UNAVAILABLE_MESSAGE),
    );
    host.setActiveSession(session);
    pi.pushPendingAction({ label: "outside", apply: async () => textResult("x") });
    expect(session.pending.peek()).toMatchObject({ label: "outside", sourceToolName: "custom_tool" });
  });

  it("names the calling tool as the source, through pi as through ctx", async () => {
    const host = new ToolHost();
    const [a] = twoSessions(host);
    await a.execute({
      toolCallId: "p",
      name: "stage",
      params: { label: "via pi", delays: [0, 0], via: "pi" },
    });
    await a.execute({
      toolCallId: "c",
      name: "stage",
      params: { label: "via ctx", delays: [0, 0], via: "ctx" },
    });
    expect(a.pending.list().map(({ label, sourceToolName }) => ({ label, sourceToolName }))).toEqual([
      { label: "via ctx", sourceToolName: "stage" },
      { label: "via pi", sourceToolName: "stage" },
    ]);
  });
});
