import { Type } from "@sinclair/typebox";
import { type AgentToolResult, type CustomTool, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { textOf } from "../../../test/fake-context.js";
import { Session } from "../session.js";
import { callStopOf } from "./call-abort.js";
import { STOP_THROUGH_CONTEXT } from "./tool-sees-signal.js";

// A tool that cannot see its signal gets none, yet every way of stopping a call still answers
// at once; and the per-call deadline timer, reused between calls, still counts from each start.

function tool(name: string, execute: CustomTool["execute"]): CustomTool {
  return { name, label: name, description: name, parameters: Type.Object({}), execute };
}
const never = () => new Promise<AgentToolResult>(() => {});

afterEach(() => {
  vi.useRealTimers();
});

/** Each way a session stops a call (a tool's own `ctx.abort()` is the tool's), and its answer. */
const STOPS = [
  ["the host's signal", "was aborted before it finished (stop)"],
  ["ctx.abort()", "aborted its own call"],
  ["dispose()", "was stopped before it finished because the session was disposed"],
  ["the deadline", "timed out after 1 s"],
] as const;

/** Stops a running call of `session` as `trigger` says (fake timers for the deadline of 1 s). */
async function stop(trigger: string, session: Session, host: AbortController): Promise<void> {
  if (trigger === "the host's signal") host.abort("stop");
  if (trigger === "dispose()") await session.dispose();
  if (trigger === "the deadline") await vi.advanceTimersByTimeAsync(1000);
}

describe("a tool that declares no signal", () => {
  it.each(STOPS)("is answered at once when %s stops it", async (trigger, expected) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const session = new Session({ executeTimeoutMs: 1000 });
    const host = new AbortController();
    session.register(
      tool("deaf", (_id, _params, _onUpdate, ctx) => {
        if (trigger === "ctx.abort()") ctx.abort();
        return never();
      }),
    );
    const call = session.execute({ toolCallId: "1", name: "deaf", params: {}, signal: host.signal });
    await stop(trigger, session, host);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(expected);
  });
});

it("gives a tool with a rest parameter a signal, aborted by ctx.abort()", async () => {
  const session = new Session();
  let signal: AbortSignal | undefined;
  session.register(
    tool("rest", (...args) => {
      signal = args[4];
      args[3].abort();
      return never();
    }),
  );
  await session.execute({ toolCallId: "1", name: "rest", params: {} });
  expect(signal?.aborted).toBe(true);
  expect(signal?.reason).toMatchObject({ message: 'The tool "rest" aborted its own call.' });
});

describe("an execute marked STOP_THROUGH_CONTEXT (the loader's proxies)", () => {
  /** A marked execute that listens through its context, recording what it got. */
  function marked(
    heard: string[],
    seen: { signal?: unknown; ctx?: unknown; listening?: boolean },
    abortSelf = false,
  ) {
    const execute: CustomTool["execute"] = (_id, _params, _onUpdate, ctx, signal) => {
      seen.signal = signal;
      seen.ctx = ctx;
      seen.listening = callStopOf(ctx)?.onStop(() => heard.push("stopped"));
      if (abortSelf) ctx.abort();
      return never();
    };
    Object.defineProperty(execute, STOP_THROUGH_CONTEXT, { value: true });
    return execute;
  }

  it.each(STOPS)("gets no signal, its context, and hears once of %s", async (trigger, expected) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const session = new Session({ executeTimeoutMs: 1000 });
    const host = new AbortController();
    const heard: string[] = [];
    const seen: { signal?: unknown; ctx?: unknown; listening?: boolean } = {};
    session.register(tool("marked", marked(heard, seen, trigger === "ctx.abort()")));
    const call = session.execute({ toolCallId: "1", name: "marked", params: {}, signal: host.signal });
    await stop(trigger, session, host);
    const result = await call;
    expect(textOf(result)).toContain(expected);
    expect(seen).toMatchObject({ signal: undefined, ctx: expect.any(Object), listening: true });
    expect(heard).toEqual(["stopped"]);
  });

  it("is heard through its context when registered under two other names", async () => {
    const session = new Session();
    const heard: string[] = [];
    const execute = marked(heard, {});
    session.register(tool("first_name", execute));
    session.register(tool("second_name", execute));
    const host = new AbortController();
    const first = session.execute({ toolCallId: "1", name: "first_name", params: {}, signal: host.signal });
    const second = session.execute({ toolCallId: "1", name: "second_name", params: {}, signal: host.signal });
    host.abort("stop");
    expect((await first).isError).toBe(true);
    expect((await second).isError).toBe(true);
    expect(heard).toEqual(["stopped", "stopped"]);
  });

  it("hears nothing when its tool settles first, not even from a late ctx.abort()", async () => {
    const session = new Session();
    const heard: string[] = [];
    let context: Parameters<CustomTool["execute"]>[3] | undefined;
    const execute: CustomTool["execute"] = async (_id, _params, _onUpdate, ctx) => {
      context = ctx;
      expect(callStopOf(ctx)?.onStop(() => heard.push("stopped"))).toBe(true);
      return textResult("done");
    };
    Object.defineProperty(execute, STOP_THROUGH_CONTEXT, { value: true });
    session.register(tool("quick", execute));
    expect(textOf(await session.execute({ toolCallId: "1", name: "quick", params: {} }))).toBe("done");
    context?.abort();
    expect(heard).toEqual([]);
    expect(callStopOf(context)?.ended).toBe(true);
    expect(callStopOf(context)?.onStop(() => heard.push("late"))).toBe(false);
  });

  it("gives a context made by anything else, or an unmarked tool's, no stop", async () => {
    const session = new Session();
    let context: unknown;
    session.register(
      tool("plain", async (_id, _params, _onUpdate, ctx) => {
        context = ctx;
        return textResult("ok");
      }),
    );
    await session.execute({ toolCallId: "1", name: "plain", params: {} });
    expect(context).toBeDefined();
    expect(callStopOf(context)).toBeUndefined();
    expect(callStopOf({ abort() {} })).toBeUndefined();
    expect(callStopOf(undefined)).toBeUndefined();
  });
});

describe("the deadline timer", () => {
  it("counts from each call's start when a later call reuses it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const session = new Session({ executeTimeoutMs: 1000 });
    session.register(tool("quick", async () => textResult("done")));
    session.register(tool("hang", never));
    expect(textOf(await session.execute({ toolCallId: "1", name: "quick", params: {} }))).toBe("done");
    await vi.advanceTimersByTimeAsync(600);
    let answered = false;
    const call = session.execute({ toolCallId: "2", name: "hang", params: {} }).then((result) => {
      answered = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(textOf(await call)).toContain('Tool "hang" timed out after 1 s');
  });

  it("keeps the process alive only while a call runs, and is gone after dispose()", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    const session = new Session();
    session.register(tool("quick", async () => textResult("done")));
    session.register(tool("hang", never));
    await session.execute({ toolCallId: "1", name: "quick", params: {} });
    expect(timers()).toBe(before);
    const call = session.execute({ toolCallId: "2", name: "hang", params: {} });
    // Armed once the synchronous run the call started in is over, before the event loop goes
    // on (a tick queued after the call's runs after the arming): the process cannot exit first.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(timers()).toBe(before + 1);
    await session.dispose();
    await call;
    expect(timers()).toBe(before);
  });

  it("arms no timer for calls that settle in the run they started in, and still stops the one that hangs", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const session = new Session({ executeTimeoutMs: 1000 });
    session.register(tool("quick", async () => textResult("done")));
    session.register(tool("hang", never));
    const quick = await Promise.all(
      [1, 2, 3].map((n) => session.execute({ toolCallId: `q${n}`, name: "quick", params: {} })),
    );
    expect(quick.map(textOf)).toEqual(["done", "done", "done"]);
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(vi.getTimerCount()).toBe(0);
    const calls = ["quick", "hang", "quick"].map((name, n) =>
      session.execute({ toolCallId: `m${n}`, name, params: {} }),
    );
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    const texts = (await Promise.all(calls)).map(textOf);
    expect([texts[0], texts[2]]).toEqual(["done", "done"]);
    expect(texts[1]).toContain('Tool "hang" timed out after 1 s');
  });

  it("leaves no timer behind after dispose()", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const session = new Session();
    session.register(tool("quick", async () => textResult("done")));
    await session.execute({ toolCallId: "1", name: "quick", params: {} });
    await session.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
