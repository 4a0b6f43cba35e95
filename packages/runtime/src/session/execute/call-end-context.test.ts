import { Type } from "@sinclair/typebox";
import { type AgentToolResult, type CustomTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../session.js";
import { type RunningToolCall, runningToolCall, trackToolCalls } from "./tool-call-scope.js";

// The session answers a call outside the call's async context: a `tool-call-end` listener
// (and what it schedules) belongs to the host, not to the tool, also when the tool stopped
// its own call from inside (`ctx.abort()`), where the stop runs in the tool's context.

function tool(name: string, execute: CustomTool["execute"]): CustomTool {
  return { name, label: name, description: name, parameters: Type.Object({}), execute };
}
const never = () => new Promise<AgentToolResult>(() => {});

describe("the answer of a tracked call", () => {
  it.each([
    ["returns", () => textResult("done")],
    [
      "aborts its own call with ctx.abort()",
      (...[, , , ctx]: Parameters<CustomTool["execute"]>) => {
        ctx.abort();
        return never();
      },
    ],
    [
      "aborts its own call after an await",
      async (...[, , , ctx]: Parameters<CustomTool["execute"]>) => {
        await Promise.resolve();
        ctx.abort();
        return never();
      },
    ],
  ] as const)("is given outside the call when the tool %s", async (_case, execute) => {
    trackToolCalls();
    const session = new Session({ executeTimeoutMs: 5_000 });
    session.register(tool("t", execute as CustomTool["execute"]));
    let inside: RunningToolCall | undefined;
    let atEnd: RunningToolCall | undefined | "not emitted" = "not emitted";
    let scheduledAtEnd: Promise<RunningToolCall | undefined> | undefined;
    session.subscribe((event) => {
      if (event.type === "tool-call-start") inside = undefined;
      if (event.type !== "tool-call-end") return;
      atEnd = runningToolCall();
      scheduledAtEnd = Promise.resolve().then(() => runningToolCall());
    });
    session.register(
      tool("probe", async () => {
        inside = runningToolCall();
        return textResult("probed");
      }),
    );
    await session.execute({ toolCallId: "p", name: "probe", params: {} });
    expect(inside?.toolCallId).toBe("p");
    await session.execute({ toolCallId: "c", name: "t", params: {} });
    expect(atEnd).toBeUndefined();
    expect(await scheduledAtEnd).toBeUndefined();
    expect(runningToolCall()).toBeUndefined();
    await session.dispose();
  });
});
