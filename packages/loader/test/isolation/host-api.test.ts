import { Session, type SessionOptions } from "@tooldock/runtime";
import { STOP_THROUGH_CONTEXT, toolOrigin } from "@tooldock/runtime/internal";
import type { CustomTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { load, project, text } from "./isolation-helpers.js";

const HOST_API = `
import { Type } from "@sinclair/typebox";
/** Resolves with "stopped" once \`signal\` is aborted, telling the host the reason. */
const untilAborted = (pi, signal) =>
  new Promise((resolve) => {
    const stopped = () => {
      pi.events.emit("tool:aborted", { reason: String(signal.reason?.message ?? signal.reason) });
      resolve({ content: [{ type: "text", text: "stopped" }] });
    };
    if (signal.aborted) stopped();
    else signal.addEventListener("abort", stopped);
  });
export default (pi) => {
  pi.events.on("host:ping", (data) => pi.events.emit("tool:pong", { got: data }));
  pi.events.on("host:notify", () => pi.ui.notify("outside any call, UI " + pi.hasUI));
  return [
    {
      name: "ask",
      label: "Ask",
      description: "Asks the user",
      parameters: Type.Object({}),
      async execute() {
        const choice = await pi.ui.select("Pick", ["a", "b"]);
        const sure = await pi.ui.confirm("Sure?", "really");
        pi.ui.notify("noted", "info");
        pi.logger.info("asked", { choice });
        return { content: [{ type: "text", text: pi.hasUI + ":" + choice + ":" + sure }] };
      },
    },
    {
      name: "slow",
      label: "Slow",
      description: "Waits for its abort signal",
      parameters: Type.Object({}),
      execute(id, params, onUpdate, ctx, signal) {
        pi.events.emit("tool:started", {});
        return untilAborted(pi, signal);
      },
    },
    {
      name: "quits",
      label: "Quits",
      description: "Aborts its own call",
      parameters: Type.Object({}),
      execute(id, params, onUpdate, ctx, signal) {
        const stopped = untilAborted(pi, signal);
        ctx.abort();
        return stopped;
      },
    },
    {
      name: "hooked",
      label: "Hooked",
      description: "Reports its session hooks",
      parameters: Type.Object({}),
      async execute() {
        return { content: [{ type: "text", text: "ok" }] };
      },
      async onSession(event, ctx) {
        pi.events.emit("tool:session", { reason: event.reason, cwd: ctx.cwd });
        if (event.reason === "shutdown") throw new Error("shutdown hook failed");
      },
    },
    {
      name: "context",
      label: "Context",
      description: "Reports its context",
      parameters: Type.Object({}),
      async execute(id, params, onUpdate, ctx) {
        return { content: [{ type: "text", text: JSON.stringify({
          sessionId: ctx.sessionId === undefined ? null : typeof ctx.sessionId,
          entries: ctx.sessionManager.getEntries().length,
          pending: ctx.hasPendingActions(),
          message: (pi.sendMessage({ content: "hello" }), "sent"),
        }) }] };
      },
    },
  ];
};
`;

describe("the pi API across the tool host's boundary", () => {
  it("answers pi.ui with the host's UI and passes the logger on", async () => {
    const where = await project({ "api.ts": HOST_API });
    const asked: string[] = [];
    const logged: string[] = [];
    const host = new ToolHost({
      cwd: where.work,
      ui: {
        select: async (title, options) => {
          asked.push(`${title}:${options.join("/")}`);
          return "b";
        },
        confirm: async () => true,
        input: async () => undefined,
        notify: (message) => asked.push(`notify:${message}`),
      },
      logger: {
        debug: () => {},
        info: (message, data) => logged.push(`${message} ${JSON.stringify(data)}`),
        warn: () => {},
        error: () => {},
      },
    });
    const { session } = await load(where, "process", { host });
    const result = await session.execute({ toolCallId: "1", name: "ask", params: {} });
    expect(text(result)).toBe("true:b:true");
    expect(asked).toEqual(["Pick:a/b", "notify:noted"]);
    expect(logged).toEqual(['asked {"choice":"b"}']);
  });

  it("sees a UI the host attached after the load outside any call too (an event's handler)", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { session } = await load(where, "process", { host });
    const notified = new Promise<string>((resolve) => {
      host.setUIContext({
        select: async () => undefined,
        confirm: async () => false,
        input: async () => undefined,
        notify: (message) => resolve(String(message)),
      });
    });
    // A call tells the tool host the UI's state; the handler then runs outside any call.
    await session.execute({ toolCallId: "1", name: "context", params: {} });
    host.events.emit("host:notify", {});
    expect(await notified).toBe("outside any call, UI true");
  });

  it("carries pi.events both ways and sendMessage to the host", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { session } = await load(where, "process", { host });
    const pong = new Promise((resolve) => host.events.on("tool:pong", resolve));
    host.events.emit("host:ping", { n: 1 });
    expect(await pong).toEqual({ got: { n: 1 } });
    const message = new Promise((resolve) => host.events.on("tooldock:message", resolve));
    const result = await session.execute({ toolCallId: "1", name: "context", params: {} });
    expect(JSON.parse(text(result))).toEqual({
      sessionId: "string",
      entries: 0,
      pending: false,
      message: "sent",
    });
    expect(await message).toEqual({
      message: { content: "hello" },
      sessionId: session.id,
      toolCallId: "1",
      toolName: "context",
    });
  });

  it("runs onSession hooks in the tool host, with their faults", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { session } = await load(where, "process", { host });
    const reasons: unknown[] = [];
    host.events.on("tool:session", (data) => reasons.push(data));
    const failed: string[] = [];
    session.subscribe((event) => {
      if (event.type === "tool-hook-failed")
        failed.push(`${event.toolName}: ${String((event.error as Error).message)}`);
    });
    await session.start();
    await session.dispose();
    expect(reasons).toEqual([
      { reason: "start", cwd: where.work },
      { reason: "shutdown", cwd: where.work },
    ]);
    expect(failed).toEqual(["hooked: shutdown hook failed"]);
  });

  it("aborts the tool's signal when the host stops the call", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { session } = await load(where, "process", { host });
    const aborted = new Promise((resolve) => host.events.on("tool:aborted", resolve));
    const controller = new AbortController();
    const started = new Promise((resolve) => host.events.on("tool:started", resolve));
    const call = session.execute({ toolCallId: "1", name: "slow", params: {}, signal: controller.signal });
    await started;
    controller.abort(new Error("user pressed stop"));
    const result = await call;
    expect(result.isError).toBe(true);
    expect(await aborted).toEqual({ reason: "The call was stopped by the host." });
  });

  // The proxies get no AbortSignal from the host's session (they hear of a stop through the
  // call's context): every way a session stops a call still reaches the tool in the tool host.
  it.each<[string, SessionOptions, string]>([
    ["the session's deadline", { executeTimeoutMs: 1000 }, "timed out after 1 s"],
    ["dispose()", {}, "because the session was disposed"],
  ])("aborts the tool's signal when %s stops the call", async (_trigger, sessionOptions, expected) => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { session } = await load(where, "process", { host }, sessionOptions);
    const aborted = new Promise((resolve) => host.events.on("tool:aborted", resolve));
    const started = new Promise((resolve) => host.events.on("tool:started", resolve));
    const call = session.execute({ toolCallId: "1", name: "slow", params: {} });
    if (sessionOptions.executeTimeoutMs === undefined) {
      await started;
      await session.dispose();
    }
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(expected);
    expect(await aborted).toEqual({ reason: "The call was stopped by the host." });
  });

  it("aborts the tool's signal through a signal a direct caller of the proxy passes", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { tools } = await load(where, "process", { host });
    const slow = tools.find(({ tool }) => tool.name === "slow")?.tool;
    const aborted = new Promise((resolve) => host.events.on("tool:aborted", resolve));
    const started = new Promise((resolve) => host.events.on("tool:started", resolve));
    const controller = new AbortController();
    const call = slow?.execute("1", {}, undefined, undefined as never, controller.signal);
    await started;
    controller.abort();
    expect(await aborted).toEqual({ reason: "The call was stopped by the host." });
    expect((await call)?.content).toBeDefined();
  });

  // The tool host aborts the tool's signal itself, then tells the host, which answers the call.
  it("answers a call whose tool aborts it (ctx.abort() in the tool host), and aborts the tool's signal", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { session } = await load(where, "process", { host });
    const aborted = new Promise((resolve) => host.events.on("tool:aborted", resolve));
    const result = await session.execute({ toolCallId: "1", name: "quits", params: {} });
    expect(text(result)).toContain('(The tool "quits" aborted its own call.)');
    expect(await aborted).toEqual({ reason: 'The tool "quits" aborted its own call.' });
  });

  // A host may register a proxy under a name of its own (a prefix against conflicts): the
  // proxy's execute is the same function, and a stop must still reach the tool host.
  it("aborts the tool's signal when the host registered the proxy under another name", async () => {
    const where = await project({ "api.ts": HOST_API });
    const host = new ToolHost({ cwd: where.work });
    const { tools } = await load(where, "process", { host });
    const slow = tools.find(({ tool }) => tool.name === "slow")?.tool as CustomTool;
    const session = new Session({ cwd: where.work });
    session.register({ ...slow, name: "ns_slow" });
    const aborted = new Promise((resolve) => host.events.on("tool:aborted", resolve));
    const started = new Promise((resolve) => host.events.on("tool:started", resolve));
    const controller = new AbortController();
    const call = session.execute({ toolCallId: "1", name: "ns_slow", params: {}, signal: controller.signal });
    await started;
    controller.abort();
    expect((await call).isError).toBe(true);
    expect(await aborted).toEqual({ reason: "The call was stopped by the host." });
    await session.dispose();
  });

  // A session creates no AbortSignal for a marked execute: the runtime's call-stop.test.ts.
  it("marks the proxy's execute to hear of a stop through its context", async () => {
    const where = await project({ "api.ts": HOST_API });
    const { tools } = await load(where, "process");
    const slow = tools.find(({ tool }) => tool.name === "slow")?.tool as CustomTool;
    const execute = toolOrigin(slow)?.execute ?? slow.execute;
    expect(Object.hasOwn(execute, STOP_THROUGH_CONTEXT)).toBe(true);
    expect((execute as unknown as Record<symbol, unknown>)[STOP_THROUGH_CONTEXT]).toBe(true);
  });
});
