import { Type } from "@sinclair/typebox";
import { type CustomTool, type CustomToolSessionEvent, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import type { SessionEvent } from "../../src/session/session-events.js";

// The attack: a reload unregisters a tool while one of its calls never ends (no deadline:
// executeTimeoutMs 0, and it ignores its signal), and its shutdown hook never settles either.
// `unregister` waits for the tool's running calls before `shutdown`: unbounded, that wait
// would never send it, and dispose() would hang on it. Both waits are bounded by
// resolveTimeoutMs; unregister itself returns at once.
describe("unregistering a tool whose call never ends", () => {
  it("returns at once, sends shutdown after resolveTimeoutMs, and dispose still settles", async () => {
    const events: string[] = [];
    let shutdownSent = () => {};
    const shutdown = new Promise<void>((resolve) => {
      shutdownSent = resolve;
    });
    let callStarted = () => {};
    const started = new Promise<void>((resolve) => {
      callStarted = resolve;
    });
    const tool: CustomTool = {
      name: "stuck",
      label: "Stuck",
      description: "never finishes",
      parameters: Type.Object({}),
      execute() {
        callStarted();
        return new Promise(() => {}); // ignores every signal
      },
      onSession(event: CustomToolSessionEvent) {
        events.push(event.reason);
        if (event.reason !== "shutdown") return;
        shutdownSent();
        return new Promise<void>(() => {}); // and its shutdown never settles either
      },
    };
    const session = new Session({ executeTimeoutMs: 0, resolveTimeoutMs: 50 });
    const faults: SessionEvent[] = [];
    session.subscribe((event) => {
      if (event.type === "tool-hook-failed") faults.push(event);
    });
    session.register(tool);
    void session.execute({ toolCallId: "1", name: "stuck", params: {} });
    await started;

    expect(session.unregister("stuck")).toBe(true);
    session.register({ ...tool, execute: async () => textResult("new version") }); // the reload's
    await shutdown; // bounded: comes resolveTimeoutMs after the unregister, not never
    expect(events).toEqual(["shutdown"]);
    await session.dispose(); // waits for that hook at most resolveTimeoutMs
    expect(faults).toHaveLength(2); // the old tool's shutdown, then the new one's, timed out
  }, 5_000);
});
