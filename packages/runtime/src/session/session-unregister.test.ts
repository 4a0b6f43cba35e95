import { Type } from "@sinclair/typebox";
import { type CustomTool, type CustomToolSessionEvent, TooldockError, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { echoTool, stagingTool } from "../../test/tools.js";
import { Session } from "./session.js";
import type { SessionEvent } from "./session-events.js";

/** A tool whose calls wait for `release()`, and that records its lifecycle events. */
function gatedTool(name: string) {
  const events: string[] = [];
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const tool: CustomTool = {
    name,
    label: "Gated",
    description: "Waits for the test",
    parameters: Type.Object({}),
    async execute() {
      events.push("call-start");
      started();
      await gate;
      events.push("call-end");
      return textResult("finished");
    },
    onSession(event: CustomToolSessionEvent) {
      events.push(event.reason);
    },
  };
  return { tool, events, release, running };
}

describe("session.unregister", () => {
  it("removes the tool, frees its name and says whether there was one", () => {
    const session = new Session();
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    session.register(echoTool("a"), "tools/a.ts");
    session.register(echoTool("b"));
    expect(session.unregister("a")).toBe(true);
    expect(session.unregister("a")).toBe(false);
    expect(session.unregister("never")).toBe(false);
    expect(session.get("a")).toBeUndefined();
    expect(session.activeTools().map((tool) => tool.name)).toEqual(["b"]);
    expect(events).toContainEqual({ type: "tool-unregistered", toolName: "a", origin: "tools/a.ts" });
    session.register(echoTool("a"), "tools/a-v2.ts");
    expect(session.tools().map((tool) => tool.name)).toEqual(["resolve", "b", "a"]);
    expect(session.originOf("a")).toBe("tools/a-v2.ts");
    expect(session.originOf("b")).toBe("the host");
    expect(session.originOf("never")).toBeUndefined();
  });

  it("answers a later call of the removed tool as unknown", async () => {
    const session = new Session();
    session.register(echoTool("a"));
    session.unregister("a");
    const result = await session.execute({ toolCallId: "1", name: "a", params: { text: "x" } });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('Unknown tool "a"') });
  });

  it("refuses resolve with E_NAME_INVALID and keeps it", () => {
    const session = new Session();
    let error: unknown;
    try {
      session.unregister("resolve");
    } catch (caught) {
      error = caught;
    }
    expect(TooldockError.isInstance(error) && error.code).toBe("E_NAME_INVALID");
    expect((error as Error).message).toContain("Unregister only the tools you registered");
    expect(session.get("resolve")).toBeDefined();
  });

  it("lets a running call finish, then sends shutdown", async () => {
    const session = new Session();
    const gated = gatedTool("slow");
    session.register(gated.tool);
    await session.start();
    const call = session.execute({ toolCallId: "1", name: "slow", params: {} });
    await gated.running;
    expect(session.unregister("slow")).toBe(true);
    expect(gated.events).toEqual(["start", "call-start"]);
    gated.release();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "finished" }]);
    await session.dispose(); // waits for the shutdown hook the unregister started
    expect(gated.events).toEqual(["start", "call-start", "call-end", "shutdown"]);
  });

  it("sends no second shutdown after dispose", async () => {
    const session = new Session();
    const gated = gatedTool("t");
    session.register(gated.tool);
    await session.dispose();
    expect(session.unregister("t")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(gated.events).toEqual(["shutdown"]);
  });

  it("keeps the actions the tool staged pending, and resolve still applies them", async () => {
    const applied: string[] = [];
    const session = new Session();
    session.register(stagingTool("stage", (label) => applied.push(label)));
    await session.execute({ toolCallId: "1", name: "stage", params: { label: "rename" } });
    session.unregister("stage");
    expect(session.pending.list().map((record) => record.label)).toEqual(["rename"]);
    expect(session.activeTools().map((tool) => tool.name)).toEqual(["resolve"]);
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });
    const result = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "ok" },
    });
    expect(result.isError).toBeFalsy();
    expect(applied).toEqual(["rename"]);
    expect(session.pending.hasPending).toBe(false);
  });
});
