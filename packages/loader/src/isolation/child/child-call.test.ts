import { Type } from "@sinclair/typebox";
import { STOP_THROUGH_CONTEXT } from "@tooldock/runtime/internal";
import type { CustomTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import type { ChildMessage } from "../protocol.js";
import { type CallRunner, type ChildCall, runCall } from "./child-call.js";

/** Runs one call of `execute` the way the tool host does and returns what it sent. */
async function run(execute: CustomTool["execute"]): Promise<{ sent: string[]; call: ChildCall }> {
  const sent: string[] = [];
  const runner: CallRunner = {
    send: (message: ChildMessage) => sent.push(JSON.stringify(message)),
    sendResult: (_id, text) => sent.push(text),
    end: () => {},
    stage: () => {},
  };
  const call: ChildCall = {
    id: 1,
    toolName: "t",
    toolCallId: "c",
    sessionId: "s",
    hasUI: false,
    ended: false,
    controller: new AbortController(),
    pending: 0,
  };
  const tool: CustomTool = { name: "t", label: "t", description: "t", parameters: Type.Object({}), execute };
  await runCall(runner, tool, call, "c", {}, { sessionId: "s", cwd: "/", hasPendingActions: false }, false);
  return { sent, call };
}

describe("a call in the tool host", () => {
  // A module in a tool host may load tools with isolation of its own: their proxies are marked
  // to hear of a stop through a session's context, which the tool host does not link.
  it("gives a proxy of a nested tool host its signal", async () => {
    let got: unknown;
    const execute: CustomTool["execute"] = async (_id, _params, _onUpdate, _ctx, signal) => {
      got = signal;
      return { content: [{ type: "text", text: "ok" }] };
    };
    Object.defineProperty(execute, STOP_THROUGH_CONTEXT, { value: true });
    const { call } = await run(execute);
    expect(got).toBeInstanceOf(AbortSignal);
    expect(got).toBe(call.controller?.signal); // the call's: an abort from the host reaches it
  });
});
